#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_layering.sh - the library's layering, read from the #include lines.
#
#   src/common/rules                     only its own folder
#   src/common/{trace,avail}             only their own folder
#   src/common/{sched,dfrs}              their own folder and rules
#   src/common/suite                     its own folder, trace, sched, dfrs,
#                                        avail and rules
#   src/common/need                      its own folder and suite
#   src/common/amcbf                     its own folder, dfrs, suite and
#                                        trace (the arrival order)
#   src/common/sim                       anything of the library
#   src/plugins, src/node                never src/common/sim
#
# and no source sits directly in src/common, so that a Slurm header included
# as "src/common/list.h" can never resolve to a file of ours.
top=$(cd "$(dirname "$0")/../.." && pwd)
lib=$top/src/common
fails=0
bad() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# includes FILE: the quoted includes of FILE, one a line
includes() { sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"; }

for f in "$lib"/*.c "$lib"/*.h; do
	[ -e "$f" ] && bad "${f#"$top"/}: sources belong in a subsystem folder of src/common"
done

checked=0
for dir in rules trace sched dfrs avail suite need amcbf sim; do
	for f in "$lib/$dir"/*.c "$lib/$dir"/*.h; do
		[ -e "$f" ] || continue
		checked=$((checked + 1))
		for inc in $(includes "$f"); do
			case $inc in
			*/*)	sub=${inc%%/*}
				[ -f "$lib/$inc" ] || { bad "${f#"$top"/}: includes $inc, which is not in src/common"; continue; }
				case $dir:$sub in
				sched:rules|dfrs:rules) ;;
				suite:trace|suite:sched|suite:dfrs|suite:avail|suite:rules) ;;
				need:suite|amcbf:dfrs|amcbf:suite|amcbf:trace|sim:*) ;;
				*) bad "${f#"$top"/}: $dir/ may not include $inc" ;;
				esac ;;
			*)	[ -f "$lib/$dir/$inc" ] || bad "${f#"$top"/}: includes $inc, not a file of $dir/" ;;
			esac
		done
	done
done
[ "$checked" -ge 100 ] || bad "only $checked library files found under $lib"

while read -r f; do
	[ -n "$f" ] || continue
	for inc in $(includes "$f"); do
		case $inc in
		sim/*) bad "${f#"$top"/}: a plugin or the node agent includes $inc" ;;
		esac
	done
done <<FILES
$(find "$top/src/plugins" "$top/src/node" -name '*.[ch]')
FILES

[ "$fails" = 0 ] && echo "layering: $checked library files, plugins and node agent: ok"
[ "$fails" = 0 ]
