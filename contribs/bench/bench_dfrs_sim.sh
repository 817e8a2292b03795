#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench_dfrs_sim.sh - how long `dfrs sim` takes to run the online DFRS
# policies on all of the Lublin trace (Stillwell et al. 2010, "Online
# Non-Clairvoyant Problem"; doc/evaluation.md times them), in rounds, each
# run beside the same run of another build when one is given, with every
# run's max bounded slowdown (which a change of speed alone must leave as it
# was).
#
# Run from a build directory (the dfrs binary is ./dfrs):
#   ../contribs/bench/bench_dfrs_sim.sh [--rounds R] [--against DFRS]
#       [--policies P,...] [--trace FILE] [--instructions] [-- SIM-ARGS...]
#
#   --rounds R       rounds of runs (default 5); in each, every policy runs
#                    once with ./dfrs, then once with DFRS if given
#   --against DFRS   another dfrs binary to pair each run with
#   --policies P,..  default greedypm,mcb
#   --trace FILE     default the Lublin trace in test/data/traces
#   --instructions   count instructions with valgrind instead of timing
#                    (one round; the wall time of a shared machine moves
#                    by a third from run to run, instruction counts do not)
#   SIM-ARGS         replace the default settings, --param
#                    dfrs_repack_algorithms=1 --param
#                    dfrs_repack_tolerance=0.01 (one packing algorithm, a
#                    warm search: see doc/evaluation.md)
#
# dfrs sim's DFRS rows replay the requeue model by default (as
# amcbf_mode=dfrs live); builds before that change replayed Stillwell et
# al.'s free migrations.  Against such a build, give both the same model
# in SIM-ARGS (--param dfrs_requeue=1, or =0), or the pair compares two
# models, not two speeds.
#
# One line per run: policy, binary, round, seconds (elapsed, trace read
# included) or instructions, and max bsld. Not a test: it prints timings.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rounds=5
against=
policies=greedypm,mcb
trace=$here/../../test/data/traces/lublin_256.swf.gz
count=0

while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--against) against=$2; shift 2 ;;
	--policies) policies=$2; shift 2 ;;
	--trace) trace=$2; shift 2 ;;
	--instructions) count=1; rounds=1; shift ;;
	--) shift; break ;;
	*) echo "bench_dfrs_sim.sh: unknown argument '$1' (see the comment at the top)" >&2
	   exit 2 ;;
	esac
done
if [ $# -eq 0 ]; then
	set -- --param dfrs_repack_algorithms=1 --param dfrs_repack_tolerance=0.01
fi
if [ ! -x ./dfrs ]; then
	echo "bench_dfrs_sim.sh: no ./dfrs here: run it from a build directory" >&2
	exit 2
fi
if [ -n "$against" ] && [ ! -x "$against" ]; then
	echo "bench_dfrs_sim.sh: --against $against: not an executable" >&2
	exit 2
fi
if [ "$count" = 1 ] && ! command -v valgrind >/dev/null 2>&1; then
	echo "bench_dfrs_sim.sh: --instructions needs valgrind (apt-get install valgrind)" >&2
	exit 2
fi
case $rounds in
''|*[!0-9]*|0) echo "bench_dfrs_sim.sh: --rounds $rounds: a whole number >= 1" >&2; exit 2 ;;
esac

out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# the first value of "key": in dfrs sim's JSON (one key per line)
json_value() {
	sed -n "s/^ *\"$1\": \\([-0-9.e+]*\\),*\$/\\1/p" "$out" | head -n 1
}

run() {	# binary policy round "$@"
	bin=$1 pol=$2 round=$3
	shift 3
	if [ "$count" = 1 ]; then
		valgrind --tool=cachegrind --cache-sim=no \
			--cachegrind-out-file=/dev/null "$bin" sim --trace "$trace" \
			--policy "$pol" --format json "$@" >"$out" 2>"$err"
		what=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$err" | tr -d ,)
	else
		t0=$(date +%s.%N)
		"$bin" sim --trace "$trace" --policy "$pol" --format json "$@" \
			>"$out" 2>"$err"
		t1=$(date +%s.%N)
		what=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
	fi
	printf '%-9s %-24s %5s %14s %12s\n' "$pol" "$bin" "$round" "$what" \
		"$(json_value max_bsld)"
}

printf '%-9s %-24s %5s %14s %12s\n' policy binary round \
	"$([ "$count" = 1 ] && echo instructions || echo seconds)" max_bsld
r=1
while [ "$r" -le "$rounds" ]; do
	for pol in $(echo "$policies" | tr , ' '); do
		run ./dfrs "$pol" "$r" "$@"
		if [ -n "$against" ]; then
			run "$against" "$pol" "$r" "$@"
		fi
	done
	r=$((r + 1))
done
