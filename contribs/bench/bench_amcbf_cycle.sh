#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# contribs/bench/bench_amcbf_cycle.sh: sched/amcbf's scheduling cycle time
# against sched/backfill's, on the same deep queue.
#
# Each scheduler in turn (never both at once: 2 cores) gets a local cluster
# of NODES nodes (contribs/local-cluster, select/linear, 2 CPUs each) whose
# nodes are all busy with long sleep jobs, then JOBS pending jobs (1 to
# MAX_NODES nodes, limits 10..59 min, the same sequence for both), and then:
#
#   sched/amcbf     (SchedulerParameters=defer,sched_interval=-1 as
#                   local-cluster sets it, plus amcbf_interval=INTERVAL: the
#                   default 30 s only makes the bench slower).  slurmctld is
#                   restarted on its saved state once the queue is full, so
#                   the plugin's statistics start from zero; after CYCLES
#                   cycles with the full queue (per-cycle debug line "cycle: N
#                   jobs and blockers") it is restarted again, and the
#                   shutdown line "stats: N cycles (mean X ms, max Y ms)"
#                   covers exactly those cycles.  The plugin's time includes
#                   waiting for slurmctld's locks and everything done under
#                   them.
#   sched/backfill  (Slurm's own, default SchedulerParameters: bf_interval=30,
#                   bf_max_job_test=500).  sdiag -r once the queue is full,
#                   then sdiag's backfill section after BF_CYCLES cycles.
#                   sdiag's cycle time excludes building and sorting the job
#                   queue and time spent with the locks yielded.
#
# and prints: scheduler, pending jobs, jobs considered per cycle, cycles,
# mean and max cycle ms, and the ratio of the means (target: <= 0.25); for
# sched/amcbf also the longest time it held slurmctld's locks at once and
# how often it yielded them (amcbf_yield_interval), and the longest hold
# that read the records at the start of a cycle (it does not yield) with
# the jobs it read, from the same stats line; and, in a phase where Slurm
# refused starts the plugin decided, the first refusal and the log's path.
#
# --mode dfrs benches amcbf_mode=dfrs instead (online DFRS, GreedyPM): it
# needs select/dfrs, so both schedulers then get select/dfrs with
# CR_Memory and OverSubscribe=FORCE:8, the busy jobs take each node's
# whole memory and the pending ones 1024 MB; the policy suspends (requeues)
# busy jobs for new ones, up to amcbf_max_preempt_per_cycle a cycle, so
# that queue moves, unlike the others.  The plugin wakes every
# amcbf_interval but decides only when a job arrived or ended or a repack is
# due; the wake-ups that do not decide are short, so the bench also gives
# the mean of the cycles that decided, and judges the target on it.
# --params STR adds keys to sched/amcbf's SchedulerParameters (e.g.
# amcbf_yield_interval=0 to measure without yielding).
# --singleton G names pending job i pend<i % G> and gives it
# --dependency=singleton: jobs G apart wait for each other, the case in
# which Slurm's dependency test scans the job records once per pending job
# (the read's hold, "longest read", shows what the plugin pays for it).
#
# Run as root from anywhere (about 3 minutes with the defaults):
#   contribs/bench/bench_amcbf_cycle.sh [--jobs 5000] [--nodes 30]
#       [--max-nodes 4] [--interval 5] [--cycles 6] [--bf-cycles 3] [--parallel 4]
#       [--perf SECONDS] [--only amcbf|backfill] [--mode amcbf|dfrs]
#       [--params STR] [--singleton G]
# --perf S also samples slurmctld with perf for S seconds during full-queue
# amcbf cycles (after the measured ones, so the figures are not disturbed)
# and prints the top symbols.  Plugins come from $DFRS_BUILD/plugins
# (default build/plugins); clusters live in $DFRS_BENCH_DIR (default
# $DFRS_BUILD/bench-clusters) on ports 20000-20599 (at most 299 nodes).  A benchmark, not a
# test: contribs/check does not run it.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
export DFRS_BUILD=${DFRS_BUILD:-$top/build}
cluster=$top/contribs/local-cluster
bench_dir=${DFRS_BENCH_DIR:-$DFRS_BUILD/bench-clusters}
jobs=5000 nodes=30 max_nodes=4 interval=5 cycles=6 bf_cycles=3 parallel=4 perf_secs=0 only=""
mode=amcbf extra_params="" singleton=0

. "$(dirname "$0")/../lib.sh"	# say, die, usage, stop_cluster, run_on_exit
. "$(dirname "$0")/lib.sh"	# start_cluster, fill_nodes, submit_pending, log_from, ...
while [ $# -gt 0 ]; do
	case $1 in
	--jobs) jobs=$2; shift 2 ;;
	--nodes) nodes=$2; shift 2 ;;
	--max-nodes) max_nodes=$2; shift 2 ;;
	--interval) interval=$2; shift 2 ;;
	--cycles) cycles=$2; shift 2 ;;
	--bf-cycles) bf_cycles=$2; shift 2 ;;
	--parallel) parallel=$2; shift 2 ;;
	--perf) perf_secs=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--mode) mode=$2; shift 2 ;;
	--params) extra_params=$2; shift 2 ;;
	--singleton) singleton=$2; shift 2 ;;
	-h|--help) usage ;;
	*) echo "unknown option '$1'" >&2; usage ;;
	esac
done
[ "$nodes" -le 299 ] || { echo "--nodes: at most 299 (ports 20000-20599)" >&2; exit 2; }
case $mode in
amcbf) select=select/linear select_opts=() busy_mem=() pend_mem=() ;;
dfrs)	select=select/dfrs busy_mem=(--mem=4096) pend_mem=(--mem=1024)
	select_opts=(--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024
		--part-extra OverSubscribe=FORCE:8) ;;
*) echo "--mode: amcbf or dfrs, not '$mode'" >&2; exit 2 ;;
esac
[ -f "$DFRS_BUILD/plugins/sched_amcbf.so" ] ||
	{ echo "no $DFRS_BUILD/plugins/sched_amcbf.so: build first or set DFRS_BUILD" >&2; exit 1; }

t0=$SECONDS
say_clock=$t0
run_on_exit stop_bench

# start_bench NAME PORT SCHED [SCHED_PARAMS]
start_bench() {
	start_cluster "$bench_dir/amcbf-cycle-$1" "$2" --nodes "$nodes" \
		--sched "$3" --select "$select" "${select_opts[@]}" \
		${4:+--sched-params "$4"}
}

# JOBS pending jobs (submit_pending), the busy jobs still running
submit_queue() {
	submit_pending "$jobs" "$max_nodes" "$parallel" "$singleton" "${pend_mem[@]}"
	# (the DFRS policy suspends busy jobs for new ones: its queue moves)
	[ "$mode" = dfrs ] || [ "$(count R)" -eq "$nodes" ] ||
		die "$(count R) jobs running, expected $nodes"
}

# When the stats line $1 counts starts refused by Slurm, the first
# refusal logged in file $2 from line $3 on, and where the log is (each
# run overwrites it unless DFRS_BENCH_DIR differs).
refused_note() {
	local n first
	n=$(sed -n 's/.*, \([0-9]*\) starts refused by Slurm.*/\1/p' <<<"$1")
	[ "${n:-0}" -gt 0 ] || return 0
	first=$(awk -v from="$3" 'NR >= from && /could not start/ { print; exit }' "$2")
	say "$n starts refused by Slurm; the first: ${first:0:240} (log: $2)"
}
# cycle_sizes_in, in the log after offset $1
cycle_sizes() { cycle_sizes_in <(log_from "$1"); }

bench_amcbf() {
	local off off1 sizes full i stats pid
	local params="amcbf_interval=$interval"
	[ "$mode" = dfrs ] && params="amcbf_mode=dfrs,$params"
	start_bench amcbf 20000 sched/amcbf "$params${extra_params:+,$extra_params}"
	fill_nodes "$nodes" 1 1000 "${busy_mem[@]}"
	submit_queue
	off=$(log_size) off1=$off
	say "restarting slurmctld on its saved state (plugin statistics from zero)"
	"$cluster" restart-controller --dir "$CLUSTER_DIR" >/dev/null
	stats=$(first_stats "$off")
	say "while submitting: ${stats#*stats: }"
	refused_note "$stats" "$CLUSTER_DIR/slurmctld.log" 1
	if [ "$mode" = dfrs ]; then
		read -r sub_decided sub_decided_mean < <(decided_cycles_in "$CLUSTER_DIR/slurmctld.log")
		say "while submitting: $sub_decided of those cycles decided, mean $sub_decided_mean ms"
	fi
	off=$(log_size)
	say "waiting for $cycles full-queue cycles (amcbf_interval=$interval); $(loadavg)"
	for ((i = 0; i < cycles * interval * 3 + 60; i++)); do
		if [ "$mode" = dfrs ]; then
			# the policy logs its size only when it decides: count
			# the agent's per-cycle timing lines instead
			full=$(log_from "$off" | grep -c ' cycle: [0-9.]* ms, ' || true)
		else
			full=$(cycle_sizes "$off" | awk -v n="$jobs" '$1 >= n' | wc -l)
		fi
		[ "$full" -ge "$cycles" ] && break
		sleep 1
	done
	off=$(log_size)
	"$cluster" restart-controller --dir "$CLUSTER_DIR" >/dev/null
	stats=$(first_stats "$off")
	[ -n "$stats" ] || die "no stats line at shutdown"
	# the log of the process that just stopped: between the two stats lines
	log_from "$off1" | awk '/ stats: [0-9]+ cycles/ { n++ } n == 1 || (n == 2 && !done++)' > "$CLUSTER_DIR/measured.log"
	sizes=$(cycle_sizes_in "$CLUSTER_DIR/measured.log" | sort -n | uniq -c |
		awk '{printf "%s%d cycles of %d", s, $1, $2; s=", "}')
	say "cycle lines: ${sizes:-none}"
	# the last one: right after a restart, nodes that have not registered
	# again are counted too, as blockers.  In dfrs mode a cycle line is
	# logged only when the policy decides, and a cycle before the nodes
	# registered sees no job: the largest
	if [ "$mode" = dfrs ]; then
		am_considered=$(cycle_sizes_in "$CLUSTER_DIR/measured.log" | sort -n | tail -1)
	else
		am_considered=$(cycle_sizes_in "$CLUSTER_DIR/measured.log" | tail -1)
	fi
	am_seen=$(cycle_sizes_in "$CLUSTER_DIR/measured.log" | wc -l)
	say "full queue: ${stats#*stats: }; $(loadavg)"
	refused_note "$stats" "$CLUSTER_DIR/measured.log" 2
	am_cycles=$(sed -n 's/.*stats: \([0-9]*\) cycles.*/\1/p' <<<"$stats")
	am_mean=$(sed -n 's/.*(mean \([0-9.]*\) ms.*/\1/p' <<<"$stats")
	am_max=$(sed -n 's/.*, max \([0-9.]*\) ms).*/\1/p' <<<"$stats")
	am_hold=$(sed -n 's/.*longest lock hold \([0-9.]*\) ms.*/\1/p' <<<"$stats")
	am_yields=$(sed -n 's/.*, \([0-9]*\) yields.*/\1/p' <<<"$stats")
	am_read=$(sed -n 's/.*longest read \([0-9.]*\) ms (\([0-9]*\) jobs).*/\1 ms for \2 jobs/p' <<<"$stats")
	if [ "$mode" = dfrs ]; then
		# (its first line is the stats line of the process before)
		read -r am_decided am_decided_mean < <(decided_cycles_in <(tail -n +2 "$CLUSTER_DIR/measured.log"))
		say "full queue: $am_decided of those cycles decided, mean $am_decided_mean ms"
	elif [ "$am_cycles" != "$am_seen" ]; then
		say "warning: $am_cycles cycles counted, $am_seen cycle lines logged"
	fi
	am_running=$(count R)
	if [ "$perf_secs" -gt 0 ]; then
		pid=$(head -n 1 "$CLUSTER_DIR/slurmctld.pid")
		sleep "$interval"
		say "perf: sampling slurmctld (pid $pid) for $perf_secs s"
		perf record -q -g -F 4999 -p "$pid" -o "$CLUSTER_DIR/perf.data" \
			-- sleep "$perf_secs" >/dev/null 2>&1 || say "perf record failed"
		perf report -q -i "$CLUSTER_DIR/perf.data" --stdio --no-children \
			--sort dso,symbol -g none 2>/dev/null | grep -v '^$' \
			> "$CLUSTER_DIR/perf-report.txt" || true
		head -15 "$CLUSTER_DIR/perf-report.txt"
	fi
	stop_bench
}

# sdiag's backfill section (its main-scheduler section has fields of the
# same names)

bench_backfill() {
	local i s n=0 last_when="" stalled=0
	start_bench backfill 20300 sched/backfill
	fill_nodes "$nodes" 1 1000 "${busy_mem[@]}"
	submit_queue
	# let a cycle that is running now finish, then count from zero
	for ((i = 0; i < 30; i++)); do
		grep -q 'WARNING: data obtained in the middle' <<<"$(bf_sdiag)" || break
		sleep 1
	done
	sdiag -r >/dev/null
	say "sdiag reset; waiting for $bf_cycles backfill cycles (bf_interval 30 s); $(loadavg)"
	for ((i = 0; i < bf_cycles * 60 + 60; i++)); do
		s=$(bf_sdiag)
		n=$(sdiag_field 'Total cycles' "$s")
		[ "${n:-0}" -ge "$bf_cycles" ] && break
		# sched/backfill skips a cycle when no job, node or partition
		# changed since the last one: a queue at rest needs a nudge
		if [ "$(grep 'Last cycle when' <<<"$s")" = "$last_when" ]; then
			stalled=$((stalled + 1))
		else
			stalled=0 last_when=$(grep 'Last cycle when' <<<"$s")
		fi
		if [ "$stalled" -ge 40 ]; then
			say "no backfill cycle for 40 s: touching one pending job"
			scontrol update jobid="$(squeue -h -t PD -o %i | tail -1)" comment="bench-$i"
			stalled=0
		fi
		sleep 1
	done
	for ((i = 0; i < 30; i++)); do
		s=$(bf_sdiag)
		grep -q 'WARNING: data obtained in the middle' <<<"$s" || break
		sleep 1
	done
	bf_cycles_done=$(sdiag_field 'Total cycles' "$s")
	[ "${bf_cycles_done:-0}" -ge 1 ] || die "no backfill cycle ran"
	bf_mean=$(awk -v u="$(sdiag_field 'Mean cycle' "$s")" 'BEGIN {printf "%.2f", u / 1000}')
	bf_max=$(awk -v u="$(sdiag_field 'Max cycle' "$s")" 'BEGIN {printf "%.2f", u / 1000}')
	bf_last=$(awk -v u="$(sdiag_field 'Last cycle' "$s")" 'BEGIN {printf "%.2f", u / 1000}')
	bf_depth=$(sdiag_field 'Last depth cycle' "$s")
	bf_try=$(sdiag_field 'Last depth cycle (try sched)' "$s")
	bf_queue=$(sdiag_field 'Last queue length' "$s")
	say "sdiag: $bf_cycles_done cycles, mean $bf_mean ms, max $bf_max ms, last $bf_last ms, depth $bf_depth, tried $bf_try, queue $bf_queue; $(loadavg)"
	echo "$s" > "$CLUSTER_DIR/sdiag-backfill.txt"
	stop_bench
}

say "bench: $jobs pending jobs on $nodes busy nodes; plugins from $DFRS_BUILD/plugins"
[ "$only" = backfill ] || bench_amcbf
[ "$only" = amcbf ] || bench_backfill

echo
printf '%-15s %8s  %-28s %7s %9s %9s\n' scheduler pending "considered per cycle" cycles "mean ms" "max ms"
if [ "$only" != backfill ]; then
	printf '%-15s %8s  %-28s %7s %9s %9s\n' "sched/amcbf" "$jobs" \
		"$([ "${am_considered:-0}" -gt 0 ] && echo "$((am_considered - am_running)) (+$am_running running)" || echo "none (no cycle saw a job)")" \
		"$am_cycles" "$am_mean" "$am_max"
	[ "$mode" != dfrs ] ||
		printf '%-15s %8s  %-28s %7s %9s\n' "  of which" "" "decided" "$am_decided" "$am_decided_mean"
	echo "sched/amcbf ($mode mode${extra_params:+, $extra_params}): longest lock hold ${am_hold:-?} ms, ${am_yields:-?} yields; longest read of the records (one hold, no yield) ${am_read:-?}; $nodes nodes"
fi
if [ "$only" != amcbf ]; then
	printf '%-15s %8s  %-28s %7s %9s %9s\n' sched/backfill "$jobs" \
		"$bf_try tried, $bf_depth looked at" "$bf_cycles_done" "$bf_mean" "$bf_max"
fi
if [ -z "$only" ]; then
	awk -v a="$am_mean" -v b="$bf_mean" -v am="$am_max" -v bm="$bf_max" \
	    -v d="${am_decided_mean:-}" 'BEGIN {
		r = a / b
		if (d != "") {	# dfrs mode: judged on the cycles that decided
			printf "ratio amcbf/backfill: mean %.2f (decided cycles %.2f), max %.2f (target: mean of decided cycles <= 0.25: %s)\n",
				r, d / b, am / bm, d / b <= 0.25 ? "met" : "NOT met"
			exit
		}
		printf "ratio amcbf/backfill: mean %.2f, max %.2f (target: mean <= 0.25: %s)\n",
			r, am / bm, r <= 0.25 ? "met" : "NOT met" }'
fi
echo "bench: wall time $((SECONDS - t0)) s"
