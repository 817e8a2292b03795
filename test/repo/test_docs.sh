#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_docs.sh - the man pages against the code: every page in doc/man
# renders with man(1) without a warning; every SchedulerParameters key of
# src/common/suite/dfrs_params.c has an entry, with the same default, in
# slurm-dfrs.5; every dfrs subcommand has a section in dfrs.1, and every
# option of dfrs's subcommands and of dfrs-nodeagent, and every dfrs sim
# --param key, is in its page.  Needs man-db (contribs/setup installs it),
# no cluster.  Run by make check (srcdir set), or by hand from anywhere.
set -u
top=${srcdir:-$(dirname "$0")/../..}
man=$top/doc/man
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

command -v man >/dev/null 2>&1 ||
	{ echo "FAIL: man not found: install man-db and groff-base (contribs/setup does)"; exit 1; }

# 1. every page renders, without a warning (in a locale every Debian has,
# so that only warnings about the page itself count)
pages=$(ls "$man"/*.[1-8] 2>/dev/null)
[ -n "$pages" ] || fail "no man pages in $man"
for page in $pages; do
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 0 ] || fail "$(basename "$page"): man exits $rc"
	[ -s "$tmp/err" ] && fail "$(basename "$page"): warnings: $(cat "$tmp/err")"
	[ "$(wc -l <"$tmp/out")" -gt 20 ] || fail "$(basename "$page"): renders to almost nothing"
done

# 2. SchedulerParameters: key and default of every entry of the table
sed -n 's/^[[:space:]]*{ "\([a-z_]*\)", P_[A-Z]*, "\([^"]*\)".*/\1 \2/p' \
	"$top/src/common/suite/dfrs_params.c" >"$tmp/params"
[ "$(wc -l <"$tmp/params")" -ge 10 ] ||
	fail "found only $(wc -l <"$tmp/params") parameters in dfrs_params.c: has its table changed shape?"

# check_params PAGE: one line per key without an entry ".BR key= ..." or whose
# entry's "Default" is not followed by ".BR <default>"; prints the count.
check_params() {
	n=0
	while read -r key def; do
		entry=$(grep -n "^\.BR\{0,1\} $key= " "$1" | head -1 | cut -d: -f1)
		if [ -z "$entry" ]; then
			echo "FAIL: $(basename "$1"): no entry for $key" >&2
			n=$((n + 1))
			continue
		fi
		got=$(sed -n "$((entry + 1)),$((entry + 3))p" "$1" |
			sed -n 's/^\.BR \([^ ]*\) \.$/\1/p' | head -1)
		if [ "$got" != "$def" ]; then
			echo "FAIL: $(basename "$1"): $key: default '${got:-none}' in the page, '$def' in dfrs_params.c" >&2
			n=$((n + 1))
		fi
	done <"$tmp/params"
	echo "$n"
}
base=$(check_params "$man/slurm-dfrs.5")
[ "$base" = 0 ] || fail "slurm-dfrs.5: $base parameters missing or with a wrong default"

# The check itself must notice a missing entry: drop the first key's entry
# line from a copy and expect one failure more.
first=$(head -1 "$tmp/params" | cut -d' ' -f1)
grep -v "^\.BR\{0,1\} $first= " "$man/slurm-dfrs.5" >"$tmp/mutant.5"
n=$(check_params "$tmp/mutant.5" 2>/dev/null)
[ "$n" = $((base + 1)) ] ||
	fail "the check missed $first's entry removed from a copy of slurm-dfrs.5 ($n failures, not $((base + 1)))"

# 3. dfrs: every subcommand has a section, every option is mentioned
subs=$(sed -n 's/^[[:space:]]*{ "\([a-z]*\)", cmd_.*/\1/p' "$top/src/dfrs/dfrs.c")
[ -n "$subs" ] || fail "no subcommand found in src/dfrs/dfrs.c"
for sub in $subs version; do
	grep -q "^\.SS dfrs $sub\b" "$man/dfrs.1" || fail "dfrs.1: no section '.SS dfrs $sub'"
done

# options NAME FILE...: long options declared by getopt tables or compared
# with strcmp, one per line
options() {
	{
		sed -n 's/.*{ "\([a-z-]*\)", \(required\|no\|optional\)_argument.*/\1/p' "$@"
		grep -o 'strcmp(argv\[[a-z0-9]*\], "--[a-z-]*")' "$@" | sed 's/.*"--\([a-z-]*\)")/\1/'
	} | sort -u
}
for opt in $(options "$top"/src/dfrs/cmd_*.c); do
	grep -q -- "\\\\-\\\\-$(echo "$opt" | sed 's/-/\\\\-/g')\b" "$man/dfrs.1" ||
		fail "dfrs.1: option --$opt not mentioned"
done
while read -r key; do
	[ -n "$key" ] || continue
	grep -q "$key" "$man/dfrs.1" || fail "dfrs.1: dfrs sim --param $key not mentioned"
done <<KEYS
$(sed -n 's/^[[:space:]]*PW\{0,1\}("\([a-z_]*\)".*/\1/p' "$top/src/common/sim/sim_params.c")
KEYS

# 4. dfrs-nodeagent: every option
for opt in $(options "$top/src/node/dfrs_nodeagent.c"); do
	grep -q -- "^\.BI\{0,1\} \\\\-\\\\-$opt\b" "$man/dfrs-nodeagent.8" ||
		fail "dfrs-nodeagent.8: no entry for --$opt"
done

# 5. What the availability policy does with a running job the preemption
# rules exempt (--no-requeue among them): amcbf_avail.c's act() leaves it
# running (amcbf_rules_avail_may); its header and availability.md say so,
# and neither says such a job is suspended ("waits instead").
for f in "$top/src/plugins/sched/amcbf/amcbf_avail.c" "$top/doc/availability.md"; do
	flat=$(tr -s ' \n*' ' ' <"$f")
	printf '%s\n' "$flat" | grep -F 'neither suspended nor requeued: it is left running' >/dev/null ||
		fail "$f: does not say that a job the preemption rules exempt is left running"
	printf '%s\n' "$flat" | grep -E -- '--no-requeue[^.]*: it waits instead' >/dev/null &&
		fail "$f: says a --no-requeue job waits (is suspended); amcbf_avail.c leaves it running"
done

if [ "$fails" = 0 ]; then
	echo "test_docs: $(echo "$pages" | wc -w) man pages render cleanly; $(wc -l <"$tmp/params") parameters, $(echo "$subs" | wc -w) subcommands and their options documented"
fi
[ "$fails" = 0 ]
