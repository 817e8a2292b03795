#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_shellcheck.sh - shellcheck over every shell script of the tree: each
# file git tracks (or would: not ignored) whose first line is a #! of sh or
# bash (found by that line, not by a list), and the sourced helpers whose
# first line is a "shellcheck shell=" directive (contribs/lib.sh,
# contribs/bench/lib.sh, test/integration/lib.sh, test/unit/cli_expect.sh).
# Its settings: .shellcheckrc, and test/integration/.shellcheckrc for the
# integration tests.  Any finding fails.
#
# First, a check of its own that shellcheck does not make: in a script that
# sets pipefail, and in a sourced helper (it runs under its sourcer's
# options), no pipe into a grep that stops reading at its first match
# (-q, --quiet, --silent, -m, --max-count).  The writer then dies of
# SIGPIPE if it had more to write, and pipefail makes the pipeline fail
# although grep matched.  `grep ... >/dev/null` reads its input to the end
# (GNU grep drains a pipe when its output is /dev/null), as does grep on a
# here-string of output captured first.  Each such line is named,
# FILE:LINE, and fails the test.
#
# Skipped (77) without shellcheck (after the pipefail check) or outside the
# top of a git checkout (a release tarball's tree); contribs/setup installs
# the shellcheck program, and contribs/check runs this as one of its steps.
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# the top of its own checkout, not a tree inside another one's build
# directory (make distcheck unpacks the release tarball there)
[ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$top" ] ||
	{ echo "SKIP: $top is not the top of a git checkout (the scripts are the files git tracks)"; exit 77; }
cd "$top" || exit 1

# shell_scripts: the shell scripts, one a line (no name here holds a
# newline: git ls-files would quote it)
shell_scripts() {
	git ls-files --cached --others --exclude-standard | awk '{
		first = ""
		getline first < $0
		close($0)
		if (first ~ /^#!.*[\/ ](ba|da)?sh([ \t]|$)/ || first ~ /^# shellcheck shell=/)
			print
	}'
}

n=$(shell_scripts | wc -l)
[ "$n" -gt 0 ] || { echo "FAIL: shellcheck: no shell script found in $top"; exit 1; }

# early_grep FILE: each line of FILE (a logical line: one ending in | or \
# goes on with the next) where a pipe feeds a grep that stops at its first
# match, as "FILE:LINE: TEXT"; comment lines aside
early_grep() {
	awk -v file="$1" '
	function check(text, at,   rest, n, w, i, k) {
		rest = text
		while (match(rest, /(^|[^|])[|][ \t]*[ef]?grep[ \t]/)) {
			rest = substr(rest, RSTART + RLENGTH)
			n = split(rest, w, /[ \t]+/)
			for (i = 1; i <= n; i++) {
				if (w[i] ~ /^(\||\|\||&&|;|;;|\))$/)
					break
				if (w[i] ~ /^-[A-Za-z]*[qm]/ || w[i] ~ /^--(quiet|silent|max-count)/) {
					printf "%s:%d: %s\n", file, at, text
					return
				}
				k = w[i]
				if (k ~ /[;)]$/)
					break
			}
		}
	}
	/^[ \t]*#/ && line == "" { next }
	{
		if (line == "")
			start = FNR
		cur = $0
		sub(/[ \t]+$/, "", cur)
		if (cur ~ /\\$/) {
			line = line substr(cur, 1, length(cur) - 1) " "
			next
		}
		if (cur ~ /[^|][|]$/) {
			line = line cur " "
			next
		}
		check(line cur, start)
		line = ""
	}' "$1"
}

# the scripts early_grep reads: those that set pipefail, and the helpers
pipefail_scripts() {
	shell_scripts | while IFS= read -r f; do
		if grep -E '^[[:space:]]*set[[:space:]].*pipefail' "$f" >/dev/null ||
			head -n 1 "$f" | grep '^# shellcheck shell=' >/dev/null; then
			echo "$f"
		fi
	done
}

early=$(pipefail_scripts | while IFS= read -r f; do early_grep "$f"; done)
if [ -n "$early" ]; then
	printf '%s\n' "$early"
	echo "FAIL: shellcheck: a pipe into grep -q (or -m) under pipefail, above: grep stops at its first match, the writer can die of SIGPIPE and the pipeline fail; use grep ... >/dev/null, or grep on a here-string"
	exit 1
fi

command -v shellcheck >/dev/null 2>&1 ||
	{ echo "SKIP: shellcheck is not installed (apt-get install shellcheck); no pipe into grep -q under pipefail in $n scripts"; exit 77; }
if shell_scripts | xargs -d '\n' shellcheck; then
	echo "PASS: shellcheck: $n scripts, no finding"
	exit 0
fi
echo "FAIL: shellcheck: findings above (in $n scripts; settings in .shellcheckrc)"
exit 1
