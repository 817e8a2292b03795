#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# contribs/bench/bench_scale_live.sh: how sched/amcbf's live cycle, its
# longest hold of slurmctld's locks and slurmctld's memory grow with the
# nodes, against sched/backfill on the same queue (issue 45, part 2; the
# engine alone is contribs/bench/bench_scale.sh, one small cluster
# bench_amcbf_cycle.sh, whose queue and phases this follows).
#
# For each NODES of --nodes, on a local cluster (contribs/local-cluster) of
# that many emulated nodes of 2 CPUs:
#
#   select/linear: every node busy with long sleep jobs of BUSY nodes each
#   (wide jobs: one batch step each, not one slurmstepd per node), then JOBS
#   pending jobs (job i: 1 + i % MAX_NODES nodes, 10 + i % 50 minutes, by
#   PARALLEL sbatch loops, timed), under sched/amcbf amcbf_mode=amcbf.  Then
#   slurmctld is restarted on its saved state three times, with the same
#   jobs, under:
#     amcbf        sched/amcbf (defer,sched_interval=-1,amcbf_interval=I);
#                  CYCLES cycles that saw the full queue, then the stats line
#                  slurmctld's stop prints (cycle mean and max, longest lock
#                  hold, longest read);
#     backfill     sched/backfill, Slurm's defaults but bf_interval=BF_INT
#                  (the time between cycles, not their cost) and
#                  bf_max_time=30 (its default is bf_interval, the default
#                  30 s: a cycle's time bound as at the defaults);
#                  BF_CYCLES cycles, sdiag's backfill section (mean and max
#                  cycle, jobs tried);
#     backfill-max the same with bf_max_job_test=JOBS+NODES (the queue's
#                  length, the running jobs included).
#   select/dfrs (CR_Memory, OverSubscribe=FORCE:8; busy jobs take a node's
#   memory, pending ones 1024 MB), the same queue, under
#     dfrs         sched/amcbf amcbf_mode=dfrs (online DFRS, GreedyPM),
#                  measured as amcbf; its policy suspends busy jobs for
#                  new ones, up to amcbf_dfrs_max_start_per_cycle a cycle.
#
# The stats line of the process that ran while the jobs were submitted is
# printed too (not recorded).  Before each stop, slurmctld's peak RSS (VmHWM in /proc/PID/status) since
# its restart on the saved queue.  One line per run goes to OUT/results.txt:
#   mode nodes jobs submit_s cycles mean_ms max_ms hold_ms considered
#   vmhwm_kb load1
# (hold_ms "-" for backfill, which does not report it; considered: the jobs
# a sched/amcbf cycle saw, or sdiag's "Last depth cycle (try sched)"), and
# uptime with each.  --plot draws OUT/results.txt to PNG with gnuplot
# (log-log against the nodes) and exits.
#
# Run as root (each NODES: about 5 minutes at 1,024 nodes and 5,000 jobs):
#   contribs/bench/bench_scale_live.sh [--nodes "64 256 1024"] [--jobs 5000]
#       [--modes amcbf,backfill,backfill-max,dfrs] [--cycles 4] [--interval 5]
#       [--bf-cycles 2] [--bf-interval 10] [--busy 16] [--max-nodes 4]
#       [--parallel 4] [--out DIR]
#   contribs/bench/bench_scale_live.sh --plot PNG [--out DIR]
# Plugins come from $DFRS_BUILD/plugins (default build/plugins); clusters
# live in $DFRS_BENCH_DIR (default $DFRS_BUILD/bench-clusters), slurmctld on
# port 23000 and the slurmds from 23001.  The jobs sleep: the figures are
# the scheduler's, nothing about CPU sharing.  A benchmark, not a test:
# contribs/check does not run it.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
export DFRS_BUILD=${DFRS_BUILD:-$top/build}
cluster=$top/contribs/local-cluster
bench_dir=${DFRS_BENCH_DIR:-$DFRS_BUILD/bench-clusters}
node_list="64 256 1024" jobs=5000 modes=amcbf,backfill,backfill-max,dfrs
cycles=4 interval=5 bf_cycles=2 bf_interval=10 busy=16 max_nodes=4 parallel=4
out=$DFRS_BUILD/bench-scale-live png=""
port=23000

. "$(dirname "$0")/../lib.sh"	# say, die, usage, stop_cluster, run_on_exit
while [ $# -gt 0 ]; do
	case $1 in
	--nodes) node_list=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--modes) modes=$2; shift 2 ;;
	--cycles) cycles=$2; shift 2 ;;
	--interval) interval=$2; shift 2 ;;
	--bf-cycles) bf_cycles=$2; shift 2 ;;
	--bf-interval) bf_interval=$2; shift 2 ;;
	--busy) busy=$2; shift 2 ;;
	--max-nodes) max_nodes=$2; shift 2 ;;
	--parallel) parallel=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--plot) png=$2; shift 2 ;;
	-h|--help) usage ;;
	*) echo "unknown option '$1'" >&2; usage ;;
	esac
done
for v in jobs cycles interval bf_cycles bf_interval busy max_nodes parallel; do
	case ${!v} in ''|*[!0-9]*|0) echo "--${v//_/-}: a positive integer, not '${!v}'" >&2; exit 2 ;; esac
done
for n in $node_list; do
	case $n in ''|*[!0-9]*|0) echo "--nodes: positive integers, not '$n'" >&2; exit 2 ;; esac
	[ $((port + n)) -le 32767 ] || { echo "--nodes: at most $((32767 - port)) (ports from $port)" >&2; exit 2; }
done
for m in ${modes//,/ }; do
	case $m in amcbf|backfill|backfill-max|dfrs) ;;
	*) echo "--modes: amcbf, backfill, backfill-max or dfrs, not '$m'" >&2; exit 2 ;; esac
done
mkdir -p "$out"

# plot PNG: cycle mean, cycle per job considered, longest lock hold (the
# sched/amcbf modes) and peak RSS against the nodes, log-log, from
# OUT/results.txt; the dashed line grows linearly from the first point
plot() {
	command -v gnuplot >/dev/null || die "no gnuplot"
	local m f series=() s1="" s2="" s3="" s4="" x0 y0
	for m in amcbf dfrs backfill backfill-max; do
		f=$out/plot-$m.txt
		awk -v m="$m" '$1 == m' "$out/results.txt" | sort -k2,2n > "$f"
		[ -s "$f" ] && series+=("$m")
	done
	[ "${#series[@]}" -gt 0 ] || die "nothing to plot in $out/results.txt"
	read -r x0 y0 < <(awk '{ print $2, $6; exit }' "$out/plot-${series[0]}.txt")
	for m in "${series[@]}"; do
		f=$out/plot-$m.txt
		s1="$s1${s1:+, }\"$f\" using 2:6 with linespoints title \"$m\""
		s2="$s2${s2:+, }\"$f\" using 2:(\$6 * 1000 / \$9) with linespoints title \"$m\""
		case $m in amcbf|dfrs)
			s3="$s3${s3:+, }\"$f\" using 2:8 with linespoints title \"$m\"" ;;
		esac
		s4="$s4${s4:+, }\"$f\" using 2:(\$10 / 1024) with linespoints title \"$m\""
	done
	gnuplot <<EOF
set terminal pngcairo size 1400,400 font ",10" noenhanced
set output "$1"
set multiplot layout 1,4
set logscale xy
set grid
set key top left
set xlabel "nodes (emulated slurmds)"
set title "cycle, mean (ms)"
plot $s1, $y0*x/$x0 with lines dashtype 2 title "linear"
set title "cycle per job considered (us)"
set key bottom right
plot $s2
set title "longest lock hold (ms)"
plot ${s3:-1/0 notitle}, 200 with lines dashtype 2 title "target 200 ms"
set title "slurmctld peak RSS (MiB)"
plot $s4
unset multiplot
EOF
	say "plot: $1"
}
if [ -n "$png" ]; then
	plot "$png"
	exit 0
fi
[ -f "$DFRS_BUILD/plugins/sched_amcbf.so" ] ||
	die "no $DFRS_BUILD/plugins/sched_amcbf.so: build first or set DFRS_BUILD"

t0=$SECONDS
say_clock=$t0
CLUSTER_DIR=""
stop_bench() {
	[ -n "$CLUSTER_DIR" ] || return 0
	say "stopping the cluster in $CLUSTER_DIR"
	scancel --quiet --state=PENDING 2>/dev/null || true
	stop_cluster
}
run_on_exit stop_bench

load1() { cut -d' ' -f1 /proc/loadavg; }
count() { squeue -h -t "$1" -o %i 2>/dev/null | wc -l; }
log_size() { stat -c %s "$CLUSTER_DIR/slurmctld.log"; }
log_from() { tail -c +$(($1 + 1)) "$CLUSTER_DIR/slurmctld.log"; }
ctld_pid() { head -n 1 "$CLUSTER_DIR/slurmctld.pid"; }
vmhwm() { sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$(ctld_pid)/status"; }
# record MODE FIELDS...: one line of results.txt, and uptime beside it
record() {
	echo "$*" >> "$out/results.txt"
	echo "$* # $(uptime)" >> "$out/results-uptime.txt"
	say "result: $*"
}

# start_cluster NODES SELECT-OPTIONS...: sched/amcbf at start (its mode in
# $mode_params)
start_cluster() {
	local n=$1
	shift
	CLUSTER_DIR=$bench_dir/scale-live-$n
	export SLURM_CONF=$CLUSTER_DIR/slurm.conf
	mkdir -p "$bench_dir"
	say "starting $n nodes ($*) in $CLUSTER_DIR; load $(load1)"
	local s=$SECONDS
	# Slurm's default MaxJobCount (10,000 records) refuses a deeper queue
	"$cluster" start --dir "$CLUSTER_DIR" --nodes "$n" --port "$port" \
		--sched sched/amcbf --sched-params "$mode_params,amcbf_interval=$interval" \
		--conf "MaxJobCount=$((jobs + n + 10000))" \
		--debug debug "$@" >/dev/null || die "cluster of $n nodes did not start"
	say "up in $((SECONDS - s)) s; $(free -m | awk '/^Mem:/ { print $3 " MB used" }')"
}

# fill NODES: every node busy, in jobs of BUSY nodes
fill() {
	local n=$1 left=$1 w i
	while [ "$left" -gt 0 ]; do
		w=$busy
		[ "$w" -le "$left" ] || w=$left
		sbatch -Q -N "$w" -t 100000 -J busy "${busy_mem[@]}" -o /dev/null \
			--wrap 'sleep 1000000' >/dev/null
		left=$((left - w))
	done
	for ((i = 0; i < 240; i++)); do
		[ "$(squeue -h -t R -o %D | awk '{ s += $1 } END { print s + 0 }')" -ge "$n" ] && return 0
		sleep 0.5
	done
	die "not every node busy after 2 minutes"
}

# submit: JOBS pending jobs by PARALLEL loops; sets submit_s
submit() {
	local s=$SECONDS n
	# shellcheck disable=SC2016  # a script for the inner bash, which expands it
	seq 1 "$jobs" | max_nodes=$max_nodes pend_mem="${pend_mem[*]}" \
		xargs -P "$parallel" -n 100 bash -c '
		for i; do
			for try in 1 2 3; do
				# shellcheck disable=SC2086  # words, split on purpose
				sbatch -Q -N $((1 + i % max_nodes)) -t $((10 + i % 50)) -J pend \
					$pend_mem -o /dev/null --wrap "sleep 60" >/dev/null 2>>"$0" && break
				sleep 1
			done
		done' "$CLUSTER_DIR/sbatch.err" || true
	submit_s=$((SECONDS - s))
	n=$(squeue -h -n pend -o %i | wc -l)
	say "submitted $n of $jobs in $submit_s s ($parallel sbatch loops; $(awk -v n="$n" -v s="$submit_s" 'BEGIN { printf "%.0f", n / (s ? s : 1) }') jobs/s); load $(load1)"
	[ "$n" -ge "$jobs" ] || die "only $n of $jobs submitted (see $CLUSTER_DIR/sbatch.err)"
}

# switch SCHED PARAMS: slurm.conf's scheduler, then slurmctld restarted on
# its saved state (the jobs stay)
switch() {
	sed -i -e "s|^SchedulerType=.*|SchedulerType=$1|" \
		-e "s|^SchedulerParameters=.*|SchedulerParameters=$2|" "$SLURM_CONF"
	"$cluster" restart-controller --dir "$CLUSTER_DIR" >/dev/null
}

# decided_cycles OFFSET: "D M", how many cycles decided over at least one
# job in amcbf_mode=dfrs ("dfrs(P) cycle: N jobs" just before the timing
# line "cycle: X ms, N actions") and their mean ms, in the log from OFFSET
# to the first stats line (as bench_amcbf_cycle.sh counts them)
decided_cycles() {
	log_from "$1" | awk '/ stats: [0-9]+ cycles/ { exit }
	     /dfrs\(.*\) cycle: [1-9][0-9]* jobs/ { dec = 1; next }
	     / cycle: [0-9.]+ ms, / {
		match($0, / cycle: [0-9.]+ ms/)
		if (dec) { n++; s += substr($0, RSTART + 8, RLENGTH - 11) }
		dec = 0 }
	     END { printf "%d %.2f\n", n, n ? s / n : 0 }'
}

# measure_amcbf MODE NODES: CYCLES cycles over the full queue under
# sched/amcbf (restarted: statistics from zero), then its stats line
measure_amcbf() {
	local mode=$1 n=$2 off off0 i full st hwm sizes considered mean decided
	off=$(log_size)
	switch sched/amcbf "defer,sched_interval=-1,$mode_params,amcbf_interval=$interval"
	# the process that ran while the jobs were submitted
	st=$(log_from "$off" | awk '/ stats: [0-9]+ cycles/ && !n++')
	say "$mode, while submitting: ${st#*stats: }"
	log_from "$off" | grep -h 'read phase: the longest' | head -1 | sed 's/^/  /' || true
	off=$(log_size) off0=$(log_size)
	for ((i = 0; i < cycles * interval * 4 + 120; i++)); do
		if [ "$mode" = dfrs ]; then
			# the policy decides only at an arrival, an end or a
			# repack: one new job every INTERVAL s, so that a cycle
			# decides over the whole queue
			[ $((i % interval)) -ne 0 ] ||
				sbatch -Q -N1 -t 10 -J pend "${pend_mem[@]}" -o /dev/null \
					--wrap 'sleep 60' >/dev/null
			full=$(log_from "$off" | grep -c 'dfrs(.*) cycle: [1-9][0-9]* jobs' || true)
		else
			full=$(log_from "$off" | sed -n 's/.* cycle: \([0-9]*\) jobs and blockers.*/\1/p' |
				awk -v j="$jobs" '$1 >= j' | wc -l)
		fi
		[ "$full" -ge "$cycles" ] && break
		sleep 1
	done
	hwm=$(vmhwm)
	sizes=$(log_from "$off" | sed -n 's/.* cycle: \([0-9]*\) jobs\( and blockers\|,\).*/\1/p' | sort -n | tail -1)
	considered=${sizes:-0}
	off=$(log_size)
	"$cluster" restart-controller --dir "$CLUSTER_DIR" >/dev/null
	st=$(log_from "$off" | awk '/ stats: [0-9]+ cycles/ && !n++')
	[ -n "$st" ] || die "no stats line at the stop"
	say "$mode: ${st#*stats: }"
	log_from "$off" | grep -h 'read phase:' | head -1 | sed 's/^/  /' || true
	mean=$(sed -n 's/.*(mean \([0-9.]*\) ms.*/\1/p' <<<"$st")
	if [ "$mode" = dfrs ]; then
		# the wake-ups that decide nothing are short: the mean of those
		# that decided over at least one job
		read -r decided mean < <(decided_cycles "$off0")
		say "dfrs: $decided cycles decided, mean $mean ms"
	fi
	record "$mode" "$n" "$jobs" "$submit_s" \
		"$(sed -n 's/.*stats: \([0-9]*\) cycles.*/\1/p' <<<"$st")" "$mean" \
		"$(sed -n 's/.*, max \([0-9.]*\) ms).*/\1/p' <<<"$st")" \
		"$(sed -n 's/.*longest lock hold \([0-9.]*\) ms.*/\1/p' <<<"$st")" \
		"$considered" "$hwm" "$(load1)"
}

bf_sdiag() { sdiag | sed -n '/^Backfilling stats/,/^Latency/p' | sed '$d'; }
sdiag_field() { sed -n "s/^[[:space:]]*$1:[[:space:]]*\([0-9]*\).*/\1/p" <<<"$2" | head -1; }

# measure_backfill MODE NODES PARAMS: BF_CYCLES backfill cycles after
# sdiag -r
measure_backfill() {
	local mode=$1 n=$2 i s done_n hwm
	switch sched/backfill "$3"
	for ((i = 0; i < 60; i++)); do
		[ "$(sdiag_field 'Total cycles' "$(bf_sdiag)")" -ge 1 ] && break
		sleep 1
	done
	sdiag -r >/dev/null
	for ((i = 0; i < bf_cycles * (bf_interval + 60) + 60; i++)); do
		s=$(bf_sdiag)
		done_n=$(sdiag_field 'Total cycles' "$s")
		[ "${done_n:-0}" -ge "$bf_cycles" ] &&
			! grep -q 'WARNING: data obtained in the middle' <<<"$s" && break
		sleep 1
	done
	hwm=$(vmhwm)
	[ "${done_n:-0}" -ge 1 ] || die "$mode: no backfill cycle"
	echo "$s" > "$CLUSTER_DIR/sdiag-$mode.txt"
	say "$mode: $done_n cycles, mean $(sdiag_field 'Mean cycle' "$s") us, max $(sdiag_field 'Max cycle' "$s") us, tried $(sdiag_field 'Last depth cycle (try sched)' "$s"), depth $(sdiag_field 'Last depth cycle' "$s"), queue $(sdiag_field 'Last queue length' "$s")"
	record "$mode" "$n" "$jobs" "$submit_s" "$done_n" \
		"$(awk -v u="$(sdiag_field 'Mean cycle' "$s")" 'BEGIN { printf "%.2f", u / 1000 }')" \
		"$(awk -v u="$(sdiag_field 'Max cycle' "$s")" 'BEGIN { printf "%.2f", u / 1000 }')" \
		- "$(sdiag_field 'Last depth cycle (try sched)' "$s")" "$hwm" "$(load1)"
}

has_mode() { [[ ,$modes, == *,$1,* ]]; }

say "bench: nodes $node_list, $jobs pending jobs, modes $modes; results in $out/results.txt"
for n in $node_list; do
	if has_mode amcbf || has_mode backfill || has_mode backfill-max; then
		mode_params=amcbf_mode=amcbf busy_mem=() pend_mem=()
		start_cluster "$n" --select select/linear
		fill "$n"
		submit
		has_mode amcbf && measure_amcbf amcbf "$n"
		has_mode backfill && measure_backfill backfill "$n" \
			"bf_interval=$bf_interval,bf_max_time=30"
		has_mode backfill-max && measure_backfill backfill-max "$n" \
			"bf_interval=$bf_interval,bf_max_time=30,bf_max_job_test=$((jobs + n))"
		stop_bench
	fi
	if has_mode dfrs; then
		mode_params=amcbf_mode=dfrs busy_mem=(--mem=4096) pend_mem=(--mem=1024)
		start_cluster "$n" --select select/dfrs --conf SelectTypeParameters=CR_Memory \
			--conf DefMemPerNode=1024 --part-extra OverSubscribe=FORCE:8
		fill "$n"
		submit
		measure_amcbf dfrs "$n"
		stop_bench
	fi
done
say "bench: wall time $((SECONDS - t0)) s"
