#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_check_unit.sh - contribs/check-unit, which contribs/check uses to count
# the unit tests, run on fake build directories whose Makefile's check target
# plays a make check run: a test program that does not compile (with a
# passing result left over from an earlier run) must count as a failure; a
# cmocka program's test cases, skipped cases, skipped programs and failures
# are counted one by one, the repository checks' (test/repo) with them;
# make check's exit status decides.  A failed run's
# logs are kept in a check-unit-failed-* directory that the next run leaves
# alone; a run that passes keeps nothing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# fake NAME RECIPE...: a build directory whose `make check` runs RECIPE
fake() {
	d=$tmp/$1
	shift
	mkdir -p "$d/test/unit"
	{
		echo "check:"
		for line in "$@"; do printf '\t%s\n' "$line"; done
	} >"$d/Makefile"
}

# result NAME STATUS LINE: check-unit on it exits STATUS, last line LINE
result() {
	"$top/contribs/check-unit" "$tmp/$1" >"$tmp/$1.out" 2>&1
	rc=$?
	[ "$rc" = "$2" ] || fail "$1: exit $rc, want $2"
	last=$(tail -n 1 "$tmp/$1.out")
	[ "$last" = "$3" ] || fail "$1: last line '$last', want '$3'"
}

# A test program that no longer compiles; the .trs/.log of a passing
# earlier run are still there, and make check stops before the tests.
fake nobuild "@echo 'test_x.c:1:1: error: expected expression' >&2; exit 2"
printf ':test-result: PASS\n' >"$tmp/nobuild/test/unit/test_x.trs"
printf '[  PASSED  ] 5 test(s).\n' >"$tmp/nobuild/test/unit/test_x.log"
printf '# FAIL:  0\n# ERROR: 0\n' >"$tmp/nobuild/test-suite.log"
result nobuild 1 "unit: 0 passed, 1 failed, 0 skipped"
grep -q 'expected expression' "$tmp/nobuild.out" ||
	fail "nobuild: the compiler's message is not shown"
[ ! -e "$tmp/nobuild/test/unit/test_x.trs" ] ||
	fail "nobuild: the earlier run's result was not removed"

# Every kind of result, and make check failing because one test failed.
fake mixed \
	"@printf ':test-result: PASS\n' >test/unit/a.trs" \
	"@printf '[  PASSED  ] 3 test(s).\n[  SKIPPED ] 1 test(s), listed below:\n[  SKIPPED ] test_y\n' >test/unit/a.log" \
	"@printf ':test-result: SKIP\n' >test/unit/b.trs" \
	"@printf 'no traces\n' >test/unit/b.log" \
	"@printf ':test-result: FAIL\n' >test/unit/c.trs" \
	"@printf '[  PASSED  ] 2 test(s).\n[  FAILED  ] 2 test(s), listed below:\n' >test/unit/c.log" \
	"@printf ':test-result: ERROR\n' >test/unit/d.trs" \
	"@printf 'Segmentation fault\n' >test/unit/d.log" \
	"@printf ':test-result: PASS\n' >test/unit/e.trs" \
	"@printf 'ok: a script\n' >test/unit/e.log" \
	"@exit 2"
result mixed 1 "unit: 6 passed, 3 failed, 2 skipped"

# kept NAME: the one check-unit-failed-* directory of fake NAME (else "")
kept() {
	set -- "$tmp/$1"/check-unit-failed-*
	[ $# = 1 ] && [ -d "$1" ] && echo "$1"
}
k=$(kept mixed)
if [ -z "$k" ]; then
	fail "mixed: no single check-unit-failed-* directory with the failed run's logs"
else
	grep -q 'Segmentation fault' "$k/test/unit/d.log" ||
		fail "mixed: the crashed test's log was not kept"
	grep -q 'FAILED  ] 2 test' "$k/test/unit/c.log" ||
		fail "mixed: the failed test's log was not kept"
	grep -qx ':test-result: FAIL' "$k/test/unit/c.trs" ||
		fail "mixed: the failed test's result was not kept"
	grep -q "logs of this failed run are kept in $k\$" "$tmp/mixed.out" ||
		fail "mixed: check-unit does not say where the logs are kept"
	# the next run, passing this time, removes the run's logs but not the copy
	fake mixed \
		"@printf ':test-result: PASS\n' >test/unit/a.trs" \
		"@printf '[  PASSED  ] 1 test(s).\n' >test/unit/a.log"
	result mixed 0 "unit: 1 passed, 0 failed, 0 skipped"
	[ ! -e "$tmp/mixed/test/unit/d.log" ] || fail "mixed: the failed run's own logs were not removed"
	if [ "$(kept mixed)" != "$k" ] || [ ! -f "$k/test/unit/d.log" ]; then
		fail "mixed: a later run removed the kept logs of the failed one"
	fi
fi
k=$(kept nobuild)
if [ -z "$k" ] || ! grep -q 'expected expression' "$k/check-unit.log"; then
	fail "nobuild: make check's output was not kept"
fi

# The repository checks (test/repo) count with the unit tests: an earlier
# run's result there is removed too, and a failed check's log is kept.
fake repo \
	"@mkdir -p test/repo" \
	"@printf ':test-result: PASS\n' >test/unit/a.trs" \
	"@printf '[  PASSED  ] 2 test(s).\n' >test/unit/a.log" \
	"@printf ':test-result: PASS\n' >test/repo/docs.trs" \
	"@printf 'PASS: docs\n' >test/repo/docs.log" \
	"@printf ':test-result: FAIL\n' >test/repo/shellcheck.trs" \
	"@printf 'FAIL: shellcheck: x.sh:3\n' >test/repo/shellcheck.log" \
	"@exit 2"
mkdir -p "$tmp/repo/test/repo"
printf ':test-result: PASS\n' >"$tmp/repo/test/repo/old.trs"
result repo 1 "unit: 3 passed, 1 failed, 0 skipped"
[ ! -e "$tmp/repo/test/repo/old.trs" ] ||
	fail "repo: the earlier run's result in test/repo was not removed"
k=$(kept repo)
if [ -z "$k" ] || ! grep -q 'x.sh:3' "$k/test/repo/shellcheck.log"; then
	fail "repo: the failed repository check's log was not kept"
fi

# All pass: exit 0.
fake good \
	"@printf ':test-result: PASS\n' >test/unit/a.trs" \
	"@printf '[  PASSED  ] 4 test(s).\n' >test/unit/a.log"
result good 0 "unit: 4 passed, 0 failed, 0 skipped"
[ -z "$(kept good)" ] || fail "good: logs kept although nothing failed"

# make check fails although every result it wrote says PASS (a test
# program that did not build besides one that ran): still a failure.
fake partial \
	"@printf ':test-result: PASS\n' >test/unit/a.trs" \
	"@printf '[  PASSED  ] 4 test(s).\n' >test/unit/a.log" \
	"@exit 2"
result partial 1 "unit: 4 passed, 1 failed, 0 skipped"

if [ "$fails" -gt 0 ]; then
	echo "$fails failure(s)"
	exit 1
fi
echo "ok: contribs/check-unit counting"
