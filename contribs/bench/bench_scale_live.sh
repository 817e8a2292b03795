#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# contribs/bench/bench_scale_live.sh: how sched/amcbf's live cycle, its
# longest hold of slurmctld's locks and slurmctld's memory grow with the
# nodes, against sched/backfill on the same queue (the
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
#   burst          a new user's first try, on an idle cluster as
#                  contribs/local-cluster starts it (sched/amcbf and
#                  select/dfrs at their defaults): BURST_JOBS two-node jobs
#                  that sleep BURST_SLEEP s, submitted while the partition
#                  is DOWN and let go at once (State=UP: one cycle finds
#                  them all; NODES / 2 start, the rest pend), BURST_SECS s,
#                  then slurmctld stopped.  Its statistics lines (each
#                  phase's longest hold of slurmctld's locks with its CPU
#                  time) and, from the debug lines of every hold, each
#                  phase's holds over 200 ms go to OUT/holds.txt; the line
#                  of results.txt has the jobs started where "considered"
#                  stands.  Not in the default --modes.  With
#                  --nodes-weight W the slurmds, their step daemons and
#                  the jobs share one cpu cgroup of weight W against
#                  slurmctld's 1024 (contribs/local-cluster
#                  --nodes-weight): 1,024 slurmds and 512 job starts on
#                  the controller's 2 cores otherwise take the CPU from
#                  slurmctld's thread while it holds the locks, which a
#                  site's controller, whose nodes are other hosts, does
#                  not see.  --burst-params STR: more SchedulerParameters
#                  for the burst's cluster (e.g. amcbf_yield_interval=100).
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
#       [--modes amcbf,backfill,backfill-max,dfrs,burst] [--cycles 4] [--interval 5]
#       [--bf-cycles 2] [--bf-interval 10] [--busy 16] [--max-nodes 4]
#       [--parallel 4] [--burst-jobs 2000] [--burst-secs 60]
#       [--burst-sleep 600] [--burst-params STR]
#       [--nodes-weight W] [--out DIR]
# (the burst at 1,024 nodes: about 5 minutes, 2 of them starting the nodes)
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
burst_jobs=2000 burst_secs=60 burst_sleep=600 nodes_weight="" burst_params=""
out=$DFRS_BUILD/bench-scale-live png=""
port=23000

. "$(dirname "$0")/../lib.sh"	# say, die, usage, stop_cluster, run_on_exit
. "$(dirname "$0")/lib.sh"	# start_cluster, fill_nodes, submit_pending, log_from, ...
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
	--burst-jobs) burst_jobs=$2; shift 2 ;;
	--burst-secs) burst_secs=$2; shift 2 ;;
	--burst-sleep) burst_sleep=$2; shift 2 ;;
	--nodes-weight) nodes_weight=$2; shift 2 ;;
	--burst-params) burst_params=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--plot) png=$2; shift 2 ;;
	-h|--help) usage ;;
	*) echo "unknown option '$1'" >&2; usage ;;
	esac
done
for v in jobs cycles interval bf_cycles bf_interval busy max_nodes parallel \
	burst_jobs burst_secs burst_sleep; do
	case ${!v} in ''|*[!0-9]*|0) echo "--${v//_/-}: a positive integer, not '${!v}'" >&2; exit 2 ;; esac
done
for n in $node_list; do
	case $n in ''|*[!0-9]*|0) echo "--nodes: positive integers, not '$n'" >&2; exit 2 ;; esac
	[ $((port + n)) -le 32767 ] || { echo "--nodes: at most $((32767 - port)) (ports from $port)" >&2; exit 2; }
done
for m in ${modes//,/ }; do
	case $m in amcbf|backfill|backfill-max|dfrs|burst) ;;
	*) echo "--modes: amcbf, backfill, backfill-max, dfrs or burst, not '$m'" >&2; exit 2 ;; esac
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
run_on_exit stop_bench

load1() { cut -d' ' -f1 /proc/loadavg; }
ctld_pid() { head -n 1 "$CLUSTER_DIR/slurmctld.pid"; }
vmhwm() { sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$(ctld_pid)/status"; }
# record MODE FIELDS...: one line of results.txt, and uptime beside it
record() {
	echo "$*" >> "$out/results.txt"
	echo "$* # $(uptime)" >> "$out/results-uptime.txt"
	say "result: $*"
}

# start_nodes NODES SELECT-OPTIONS...: sched/amcbf at start (its mode in
# $mode_params)
start_nodes() {
	local n=$1
	shift
	# Slurm's default MaxJobCount (10,000 records) refuses a deeper queue
	start_cluster "$bench_dir/scale-live-$n" "$port" --nodes "$n" \
		--sched sched/amcbf --sched-params "$mode_params,amcbf_interval=$interval" \
		--conf "MaxJobCount=$((jobs + n + 10000))" --debug debug "$@"
}

# switch SCHED PARAMS: slurm.conf's scheduler, then slurmctld restarted on
# its saved state (the jobs stay)
switch() {
	sed -i -e "s|^SchedulerType=.*|SchedulerType=$1|" \
		-e "s|^SchedulerParameters=.*|SchedulerParameters=$2|" "$SLURM_CONF"
	"$cluster" restart-controller --dir "$CLUSTER_DIR" >/dev/null
}

# measure_amcbf MODE NODES: CYCLES cycles over the full queue under
# sched/amcbf (restarted: statistics from zero), then its stats line
measure_amcbf() {
	local mode=$1 n=$2 off off0 i full st hwm sizes considered mean decided
	off=$(log_size)
	switch sched/amcbf "defer,sched_interval=-1,$mode_params,amcbf_interval=$interval"
	# the process that ran while the jobs were submitted
	st=$(first_stats "$off")
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
	sizes=$(cycle_sizes_in <(log_from "$off") | sort -n | tail -1)
	considered=${sizes:-0}
	off=$(log_size)
	"$cluster" restart-controller --dir "$CLUSTER_DIR" >/dev/null
	st=$(first_stats "$off")
	[ -n "$st" ] || die "no stats line at the stop"
	say "$mode: ${st#*stats: }"
	log_from "$off" | grep -h 'read phase:' | head -1 | sed 's/^/  /' || true
	mean=$(sed -n 's/.*(mean \([0-9.]*\) ms.*/\1/p' <<<"$st")
	if [ "$mode" = dfrs ]; then
		# the wake-ups that decide nothing are short: the mean of those
		# that decided over at least one job
		read -r decided mean < <(decided_cycles_in <(log_from "$off0"))
		say "dfrs: $decided cycles decided, mean $mean ms"
	fi
	record "$mode" "$n" "$jobs" "$submit_s" \
		"$(sed -n 's/.*stats: \([0-9]*\) cycles.*/\1/p' <<<"$st")" "$mean" \
		"$(sed -n 's/.*, max \([0-9.]*\) ms).*/\1/p' <<<"$st")" \
		"$(sed -n 's/.*longest lock hold \([0-9.]*\) ms.*/\1/p' <<<"$st")" \
		"$considered" "$hwm" "$(load1)"
}

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

# hold_summary LOG: from the debug line of every hold ("lock hold: PHASE
# W ms, C ms of it on a CPU, preempted P times, slept S times, ..."), per
# phase: holds, the longest (wall, CPU, preempted, slept), holds over 200 ms
hold_summary() {
	awk '/ lock hold: / {
		sub(/.* lock hold: /, "")
		ph = $1; w = $2 + 0; c = $4 + 0; pr = $12 + 0; sl = $15 + 0
		n[ph]++
		if (w > 200) over[ph]++
		if (w > max[ph]) { max[ph] = w; cpu[ph] = c; pre[ph] = pr; slp[ph] = sl }
	}
	END {
		for (ph in n)
			printf "  %s: %d holds, longest %.2f ms (%.2f ms on a CPU, preempted %d, slept %d), %d over 200 ms\n",
				ph, n[ph], max[ph], cpu[ph], pre[ph], slp[ph], over[ph] + 0
	}' "$1"
}

# measure_burst NODES: the burst (see the top), on a cluster started for it
measure_burst() {
	local n=$1 dir st started hwm t_up s0
	start_cluster "$bench_dir/scale-burst-$n" "$port" --nodes "$n" \
		--conf "MaxJobCount=$((burst_jobs + 10000))" ${nodes_weight:+--nodes-weight "$nodes_weight"} \
		${burst_params:+--sched-params "$burst_params"}
	dir=$CLUSTER_DIR
	scontrol update PartitionName=debug State=DOWN
	s0=$SECONDS
	# shellcheck disable=SC2016  # a script for the inner bash
	seq 1 "$burst_jobs" | xargs -P "$parallel" -n 50 bash -c '
		for i; do
			for try in 1 2 3; do
				sbatch -Q -N 2 -t 30 -J burst -o /dev/null \
					--wrap "sleep $0" >/dev/null 2>>"$1" && break
				sleep 1
			done
		done' "$burst_sleep" "$dir/sbatch.err" || true
	submit_s=$((SECONDS - s0))
	[ "$(count PD)" -ge "$burst_jobs" ] ||
		die "only $(count PD) of $burst_jobs jobs pending (see $dir/sbatch.err)"
	say "burst: $burst_jobs two-node jobs pending behind a DOWN partition; $(loadavg)"
	t_up=$SECONDS
	scontrol update PartitionName=debug State=UP
	sleep "$burst_secs"
	started=$(count R)
	hwm=$(vmhwm)
	say "burst: $started running after $((SECONDS - t_up)) s; $(loadavg)"
	stop_bench
	# the last one: the stop's (one comes every 5 minutes too)
	st=$(awk '/ stats: [0-9]+ cycles/ { l = $0 } END { print l }' "$dir/slurmctld.log")
	[ -n "$st" ] || die "no stats line at the stop"
	{
		echo "burst, $n nodes, $burst_jobs jobs, the nodes' cpu weight ${nodes_weight:-that of every process}${burst_params:+, $burst_params}: ${st#*stats: }"
		grep -h 'lock holds, the longest of each phase' "$dir/slurmctld.log" |
			tail -1 | sed 's/.*lock holds/lock holds/'
		hold_summary "$dir/slurmctld.log"
		echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
	} | tee -a "$out/holds.txt"
	record burst "$n" "$burst_jobs" "$submit_s" \
		"$(sed -n 's/.*stats: \([0-9]*\) cycles.*/\1/p' <<<"$st")" \
		"$(sed -n 's/.*(mean \([0-9.]*\) ms.*/\1/p' <<<"$st")" \
		"$(sed -n 's/.*, max \([0-9.]*\) ms).*/\1/p' <<<"$st")" \
		"$(sed -n 's/.*longest lock hold \([0-9.]*\) ms.*/\1/p' <<<"$st")" \
		"$started" "$hwm" "$(load1)"
}

has_mode() { [[ ,$modes, == *,$1,* ]]; }

say "bench: nodes $node_list, $jobs pending jobs, modes $modes; results in $out/results.txt"
for n in $node_list; do
	if has_mode amcbf || has_mode backfill || has_mode backfill-max; then
		mode_params=amcbf_mode=amcbf busy_mem=() pend_mem=()
		start_nodes "$n" --select select/linear
		fill_nodes "$n" "$busy" 100000
		submit_pending "$jobs" "$max_nodes" "$parallel" 0
		has_mode amcbf && measure_amcbf amcbf "$n"
		has_mode backfill && measure_backfill backfill "$n" \
			"bf_interval=$bf_interval,bf_max_time=30"
		has_mode backfill-max && measure_backfill backfill-max "$n" \
			"bf_interval=$bf_interval,bf_max_time=30,bf_max_job_test=$((jobs + n))"
		stop_bench
	fi
	if has_mode dfrs; then
		mode_params=amcbf_mode=dfrs busy_mem=(--mem=4096) pend_mem=(--mem=1024)
		start_nodes "$n" --select select/dfrs --conf SelectTypeParameters=CR_Memory \
			--conf DefMemPerNode=1024 --part-extra OverSubscribe=FORCE:8
		fill_nodes "$n" "$busy" 100000 "${busy_mem[@]}"
		submit_pending "$jobs" "$max_nodes" "$parallel" 0 "${pend_mem[@]}"
		measure_amcbf dfrs "$n"
		stop_bench
	fi
	if has_mode burst; then
		measure_burst "$n"
	fi
done
say "bench: wall time $((SECONDS - t0)) s"
