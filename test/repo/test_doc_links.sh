#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_doc_links.sh - the links between the Markdown documents: every
# relative link [text](path#anchor) of every .md file of the tree names a
# file that exists and, where it gives an #anchor into a .md file, a
# heading of that file (the anchor GitHub makes of it: lower case, without
# punctuation, spaces as hyphens, -1, -2 ... for repeated headings).  Links
# inside code blocks and to other sites are not checked.  Then the check
# itself must notice a broken anchor and a missing file in a copy.  Needs
# python3 (contribs/setup installs it), no build.  Run by make check
# (srcdir set), or by hand from anywhere.
set -u
top=${srcdir:-$(dirname "$0")/../..}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null 2>&1 ||
	{ echo "FAIL: python3 not found (contribs/setup installs it)"; exit 1; }

# check_links DIR: one line per bad link of the .md files under DIR (build
# directories and .git left out), then "N files, M links"; exit 1 if any
check_links() {
	python3 - "$1" <<'EOF'
import os, re, sys
top = sys.argv[1]
def slug(heading):
    h = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', heading.strip().lower())
    h = ''.join(c for c in h.replace('`', '') if c.isalnum() or c in ' -_')
    return h.replace(' ', '-')
def lines(path):
    fence = False
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if line.startswith('```'):
                fence = not fence
            elif not fence:
                yield n, line
cache = {}
def anchors(path):
    if path not in cache:
        seen, found = {}, set()
        for _, line in lines(path):
            m = re.match(r'#{1,6} (.*)', line)
            if m:
                s = slug(m.group(1))
                found.add(s if s not in seen else '%s-%d' % (s, seen[s]))
                seen[s] = seen.get(s, 0) + 1
        cache[path] = found
    return cache[path]
docs = []
for d, dirs, files in os.walk(top):
    dirs[:] = [x for x in dirs if x != '.git' and not x.startswith('build')]
    docs += [os.path.join(d, f) for f in files if f.endswith('.md')]
bad = links = 0
for path in sorted(docs):
    where = os.path.relpath(path, top)
    for n, line in lines(path):
        for target in re.findall(r'\]\(([^)\s]+)\)', line):
            if re.match(r'[a-z]+:', target):
                continue
            links += 1
            name, _, anchor = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(path), name)) if name else path
            if not os.path.exists(dest):
                print('%s:%d: %s: no such file' % (where, n, target))
                bad += 1
            elif anchor and dest.endswith('.md') and anchor not in anchors(dest):
                print('%s:%d: %s: no heading with that anchor in %s' % (where, n, target, os.path.relpath(dest, top)))
                bad += 1
print('%d files, %d links' % (len(docs), links))
sys.exit(1 if bad else 0)
EOF
}

fails=0
if ! check_links "$top" >"$tmp/out"; then
	sed '$d' "$tmp/out" | sed 's/^/FAIL: /'
	fails=1
fi

# The check must notice a link to a missing heading and to a missing file.
mkdir "$tmp/mutant"
printf '# A page\n\n## Its part, one\n\n[ok](#its-part-one) [ok](b.md)\n' >"$tmp/mutant/a.md"
cat >"$tmp/mutant/b.md" <<'MD'
# B

[bad](a.md#its-part-two) [bad](c.md)
```
[not a link](x.md)
```
MD
check_links "$tmp/mutant" >"$tmp/mut" && { echo "FAIL: the check passed broken links"; fails=1; }
if [ "$(grep -c '^b.md:3: ' "$tmp/mut")" != 2 ] || [ "$(wc -l <"$tmp/mut")" != 3 ]; then
	cat "$tmp/mut"
	echo "FAIL: the check did not name exactly the two broken links"
	fails=1
fi

[ "$fails" = 0 ] && echo "test_doc_links: $(tail -1 "$tmp/out"), every one resolves"
[ "$fails" = 0 ]
