#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_slurm_regress_cli.sh - contribs/slurm-regress without a cluster: a
# bad option gives one message and exit 1; --dry-run lists a family's tests
# in the suite's order; --table-only turns two plugin sets' results into
# the table, with a test that passes under backfill and fails under amcbf
# listed with its cause, keeps the rows of a family not run this time, and
# gives a failed test the message of its fail call.  A made-up test suite
# and results: no Slurm needed.  Run by make check.
set -u
top=${srcdir:-$(dirname "$0")/../..}
sr=$top/contribs/slurm-regress
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# bad options: exit 1, one line naming the option
for args in "--families 1x" "--plugins backfill,slurm" "--timeout 0" "--bogus"; do
	# shellcheck disable=SC2086
	"$sr" $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 1 ] || fail "slurm-regress $args: exit $rc, want 1"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "slurm-regress $args: not one message: $(cat "$tmp/err")"
done

# a suite of five tests in two families, through DFRS_BUILD's slurm.env
mkdir -p "$tmp/build" "$tmp/src/testsuite/expect" "$tmp/run/backfill/logs" "$tmp/run/amcbf/logs"
for t in test17.1 test17.2 test17.10 test28.1 test28.2; do : >"$tmp/src/testsuite/expect/$t"; done
echo "DFRS_SLURM_SRC=$tmp/src" >"$tmp/build/slurm.env"
export DFRS_BUILD="$tmp/build"
DFRS_BUILD=$tmp/build "$sr" --dry-run --families 17 >"$tmp/out" 2>&1 || fail "--dry-run: exit $?"
[ "$(grep '^test' "$tmp/out" | tr '\n' ' ')" = "test17.1 test17.2 test17.10 " ] ||
	fail "--dry-run --families 17 lists: $(grep '^test' "$tmp/out" | tr '\n' ' ')"

# family 28 from an earlier table, family 17 run now
cat >"$tmp/t.md" <<'MD'
| test28.1 | pass | pass |  |
| test28.2 | skip | skip | both: no GRES |
MD
printf 'test17.1 pass 3\ntest17.2 pass 4\ntest17.10 fail 2\n' >"$tmp/run/backfill/results.txt"
printf 'test17.1 pass 3\ntest17.2 fail 9\ntest17.10 fail 2\n' >"$tmp/run/amcbf/results.txt"
echo '[x] Fatal   Job did not start (fail@globals:431,test17.2:40)' >"$tmp/run/amcbf/logs/test17.2.log"
echo '[x] Fatal   Bad version (fail@globals:431,test17.10:9)' >"$tmp/run/backfill/logs/test17.10.log"
cp "$tmp/run/backfill/logs/test17.10.log" "$tmp/run/amcbf/logs/"
printf '# comment\ntest17.2\tit waits for X\n' >"$tmp/causes"
"$sr" --table-only --dir "$tmp/run" --table "$tmp/t.md" --causes "$tmp/causes" >/dev/null 2>&1 ||
	fail "--table-only: exit $?"
grep -qxF '| 17 | 3 | 2/1/0/0 | 1/2/0/0 | test17.2 |' "$tmp/t.md" || fail "family 17's counts: $(grep '^| 17 ' "$tmp/t.md")"
grep -qxF '| 28 | 2 | 1/0/1/0 | 1/0/1/0 | none |' "$tmp/t.md" || fail "family 28 (kept): $(grep '^| 28 ' "$tmp/t.md")"
grep -qxF -- '- test17.2 (fail): it waits for X' "$tmp/t.md" || fail "the difference and its cause are not listed"
grep -qxF '| test17.2 | pass | fail | it waits for X |' "$tmp/t.md" || fail "test17.2's row: $(grep 'test17.2 ' "$tmp/t.md")"
grep -qxF '| test17.10 | fail | fail | both: Bad version |' "$tmp/t.md" || fail "test17.10's row: $(grep 'test17.10 ' "$tmp/t.md")"
grep -qxF '| test28.2 | skip | skip | both: no GRES |' "$tmp/t.md" || fail "test28.2's kept row: $(grep 'test28.2 ' "$tmp/t.md")"

if [ "$fails" -gt 0 ]; then
	echo "$fails failure(s)"
	exit 1
fi
echo "test_slurm_regress_cli: ok"
