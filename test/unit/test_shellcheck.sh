#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_shellcheck.sh - shellcheck over every shell script of the tree: each
# file git tracks (or would: not ignored) whose first line is a #! of sh or
# bash (found by that line, not by a list), and the sourced helpers whose
# first line is a "shellcheck shell=" directive (contribs/lib.sh,
# test/integration/lib.sh, test/unit/cli_expect.sh).  Its settings:
# .shellcheckrc.  Any finding fails.  Skipped (77) without shellcheck or
# outside the top of a git checkout (a release tarball's tree);
# contribs/setup installs shellcheck and contribs/check runs this as one of
# its steps.
top=$(cd "$(dirname "$0")/../.." && pwd -P)
command -v shellcheck >/dev/null 2>&1 ||
	{ echo "SKIP: shellcheck is not installed (apt-get install shellcheck)"; exit 77; }
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
if shell_scripts | xargs -d '\n' shellcheck; then
	echo "PASS: shellcheck: $n scripts, no finding"
	exit 0
fi
echo "FAIL: shellcheck: findings above (in $n scripts; settings in .shellcheckrc)"
exit 1
