#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench_scale.sh - the scale sweeps of doc/evaluation.md ("At what
# scale?"): bench_scale (one sched/amcbf decision without slurmctld, Liu et al.
# 2013's AMCBF engine and Stillwell et al. 2010's GreedyPM) over nodes
# 64..10000 at 20,000 pending jobs and over pending jobs 1k..100k at 1,024
# nodes; prints a markdown table, the log-log slope of each sweep (least
# squares of log time on log size; also over the larger half alone, where
# fixed costs weigh less), and draws the plot with gnuplot.
#
# Run from a build directory, after make contribs/bench/bench_scale:
#   ../contribs/bench/bench_scale.sh [--reps R] [--out DIR] [--png FILE]
#
#   --reps R   repeats of each decision, the median is kept (default 5)
#   --out DIR  where the raw lines go (default ./bench-scale)
#   --png FILE the plot (default DIR/scale.png)
#
# Not a test: it prints timings (CPU time; about a minute).
set -eu

reps=5
out=./bench-scale
png=
while [ $# -gt 0 ]; do
	case $1 in
	--reps) reps=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--png) png=$2; shift 2 ;;
	*) echo "usage: bench_scale.sh [--reps R] [--out DIR] [--png FILE]" >&2
	   exit 2 ;;
	esac
done
[ -n "$png" ] || png=$out/scale.png
bench=./contribs/bench/bench_scale
[ -x "$bench" ] || { echo "bench_scale.sh: no $bench (make it first)" >&2; exit 1; }
mkdir -p "$out"

nodes="64 128 256 512 1024 2048 4096 10000"
jobs="1000 2000 5000 10000 20000 50000 100000"
for mode in amcbf dfrs; do
	: > "$out/$mode-nodes.txt"
	for n in $nodes; do
		$bench $mode "$n" 20000 "$reps" >> "$out/$mode-nodes.txt"
	done
	: > "$out/$mode-jobs.txt"
	for j in $jobs; do
		$bench $mode 1024 "$j" "$reps" >> "$out/$mode-jobs.txt"
	done
done

# field 2 nodes, 3 jobs, 5 total ms, last maxrss KiB
slope() {	# file, column of the size[, first line]: least squares on logs
	awk -v c="$2" -v from="${3:-1}" 'NR >= from { x = log($c); y = log($5); n++; sx += x; sy += y;
		sxx += x * x; sxy += x * y }
		END { printf "%.2f", (n * sxy - sx * sy) / (n * sxx - sx * sx) }' "$1"
}
echo "| mode | nodes | pending jobs | decision (ms, CPU) | peak RSS (MiB) |"
echo "|---|---:|---:|---:|---:|"
for f in "$out"/amcbf-nodes.txt "$out"/amcbf-jobs.txt "$out"/dfrs-nodes.txt \
	 "$out"/dfrs-jobs.txt; do
	awk '{ printf "| %s | %d | %d | %.1f | %.1f |\n", $1, $2, $3, $5,
	       $NF / 1024 }' "$f"
done
echo
for mode in amcbf dfrs; do
	echo "$mode: slope in nodes $(slope "$out/$mode-nodes.txt" 2)" \
	     "(from 1,024: $(slope "$out/$mode-nodes.txt" 2 5))," \
	     "in pending jobs $(slope "$out/$mode-jobs.txt" 3)" \
	     "(from 10,000: $(slope "$out/$mode-jobs.txt" 3 4))"
done

command -v gnuplot > /dev/null || { echo "no gnuplot: no plot" >&2; exit 0; }
gnuplot <<EOF
set terminal pngcairo size 900,420 font ",10" noenhanced
set output "$png"
set multiplot layout 1,2
set logscale xy
set grid
set key top left
set ylabel "one decision (ms, CPU time)"
set title "at 20,000 pending jobs"
set xlabel "nodes"
plot "$out/amcbf-nodes.txt" using 2:5 with linespoints title "amcbf_mode=amcbf", \
     "$out/dfrs-nodes.txt" using 2:5 with linespoints title "amcbf_mode=dfrs (GreedyPM)", \
     [1024:10000] 6*x/1024 with lines dashtype 2 title "linear (from 6 ms at 1,024)"
set title "at 1,024 nodes"
set xlabel "pending jobs"
plot "$out/amcbf-jobs.txt" using 3:5 with linespoints title "amcbf_mode=amcbf", \
     "$out/dfrs-jobs.txt" using 3:5 with linespoints title "amcbf_mode=dfrs (GreedyPM)", \
     [10000:100000] 2.2*x*log(x)/(10000*log(10000)) with lines dashtype 2 title "n log n (from 2.2 ms at 10,000)"
unset multiplot
EOF
echo "plot: $png"
