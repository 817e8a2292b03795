#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_doc_figures.sh - the docs' quick simulation tables against what this
# build's dfrs sim prints for the commands written next to them
# (contribs/doc-figures --check --quick: seconds, NASA iPSC); then the
# check itself must notice one figure changed in a copy of the docs.  A
# failure means the code changed the figures: run contribs/doc-figures
# (it rewrites the tables; read the prose around them again).  Run by make
# check from the build directory.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
DFRS=${DFRS:-./dfrs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null 2>&1 ||
	{ echo "FAIL: python3 not found (contribs/setup installs it)"; exit 1; }

"$top/contribs/doc-figures" --dfrs "$DFRS" --check --quick >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out"; echo "FAIL: the docs' tables are stale (contribs/doc-figures rewrites them)"; exit 1; }

# mutant: NASA native, EASY's mean response 769 made 770
cp "$top/doc/evaluation.md" "$top/doc/tuning-guide.md" "$tmp/"
sed -i 's/^| easy | 769 | 4 | 1.01 |/| easy | 770 | 4 | 1.01 |/' "$tmp/evaluation.md"
cmp -s "$top/doc/evaluation.md" "$tmp/evaluation.md" &&
	{ echo "FAIL: the mutant did not change evaluation.md: has its NASA native table changed shape?"; exit 1; }
if "$top/contribs/doc-figures" --dfrs "$DFRS" --docs "$tmp" --check eval-nasa-native >"$tmp/mut" 2>&1; then
	echo "FAIL: doc-figures --check missed EASY's mean response changed in a copy of evaluation.md"
	exit 1
fi
grep -q "doc: | easy | 770 |" "$tmp/mut" ||
	{ cat "$tmp/mut"; echo "FAIL: doc-figures --check did not name the changed row"; exit 1; }
echo "test_doc_figures: $(tail -1 "$tmp/out" | sed 's/^doc-figures: //')"
