#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# contribs/bench/bench_throughput.sh: short-job throughput and start latency,
# sched/amcbf + select/dfrs against sched/backfill + select/cons_tres with
# Slurm's main scheduler on (does sched/amcbf, which owns every job start
# with the main scheduler off, keep up with short jobs?).
#
# Each scheduler in turn (never both at once: 2 cores) gets a local cluster
# (contribs/local-cluster) of NODES nodes of CPUS CPUs, idle, and then:
#
#   probe   PROBES single jobs one after the other on the idle cluster,
#           each submitted when the last has left the queue; each writes the
#           time its script starts (date +%s.%N): start latency to the
#           millisecond, sbatch's return to the script's first instruction
#           (the launch included).
#   core    a burst of JOBS jobs `sbatch -n1 -t 1 --wrap /bin/true`,
#           submitted by PARALLEL sbatch loops as fast as they go.
#   node    a burst of JOBS whole-node jobs, `sbatch -N1 --exclusive -t 1
#           --wrap /bin/true`, the same way.
#   array   one job array of ARRAY tasks, `sbatch --array=1-ARRAY -n1 -t 1
#           --wrap /bin/true`: against JOBS single jobs of the core burst.
#
# After each burst the bench waits for an empty queue and reports: how long
# submitting took, when the last job left the queue (from the first
# submission), jobs per second (jobs / that time), how many completed, and
# the start latency (StartTime - SubmitTime, whole seconds, from slurmctld's
# job completion records, jobcomp/filetxt) as median, 90th percentile and
# maximum.  For sched/amcbf, slurmctld is restarted after each burst so that
# the plugin's stats line covers that burst alone ("stats: N cycles (mean X
# ms, max Y ms), S started, ...; longest lock hold ...; longest read ..."),
# and the bench counts the cycles that started jobs, the starts per cycle
# (mean and max) and the cycles per second of the burst, from the plugin's
# per-cycle debug lines "cycle: X ms, N actions": what limits the plugin as
# the rate grows (its one-second trigger, its read phase, or the starts per
# cycle).  For sched/backfill, sdiag's main scheduler section (cycles, mean
# and max cycle, mean depth) over the same burst.
#
#   sched/backfill  select/cons_tres, CR_Core, default SchedulerParameters:
#                   the main scheduler runs at each submission and each end.
#   sched/amcbf     select/dfrs, SchedulerParameters=defer,sched_interval=-1
#                   (local-cluster sets them) and amcbf_mode=amcbf, plus
#                   --params STR.
#
# sched/amcbf splits tasks off an array's pending record ahead of each cycle
# (at most as many as the machine runs at once), so that a cycle starts as
# many of them as fit, as it starts single jobs.
#
# Run as root from anywhere (about 15 minutes with the defaults, 13 of
# them sched/backfill's):
#   contribs/bench/bench_throughput.sh [--jobs 1000] [--nodes 8] [--cpus 2]
#       [--parallel 2] [--probes 20] [--kinds probe,core,node,array]
#       [--array 1000]
#       [--only amcbf|backfill] [--params STR]
# Plugins come from $DFRS_BUILD/plugins (default build/plugins); clusters
# live in $DFRS_BENCH_DIR (default $DFRS_BUILD/bench-clusters) on ports
# 20700-20999 (at most 149 nodes).  The jobs are /bin/true (and date): they
# measure the scheduling and launch path, nothing about CPU sharing.  A
# benchmark, not a test: contribs/check does not run it.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
export DFRS_BUILD=${DFRS_BUILD:-$top/build}
cluster=$top/contribs/local-cluster
bench_dir=${DFRS_BENCH_DIR:-$DFRS_BUILD/bench-clusters}
jobs=1000 nodes=8 cpus=2 parallel=2 probes=20 kinds=probe,core,node,array only=""
array=1000
extra_params=""

. "$(dirname "$0")/../lib.sh"	# say, die, usage, stop_cluster, run_on_exit
while [ $# -gt 0 ]; do
	case $1 in
	--jobs) jobs=$2; shift 2 ;;
	--nodes) nodes=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--parallel) parallel=$2; shift 2 ;;
	--probes) probes=$2; shift 2 ;;
	--kinds) kinds=$2; shift 2 ;;
	--array) array=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--params) extra_params=$2; shift 2 ;;
	-h|--help) usage ;;
	*) echo "unknown option '$1'" >&2; usage ;;
	esac
done
for v in jobs nodes cpus parallel probes array; do
	case ${!v} in ''|*[!0-9]*|0) echo "--$v: a positive integer, not '${!v}'" >&2; exit 2 ;; esac
done
[ "$nodes" -le 149 ] || { echo "--nodes: at most 149 (ports 20700-20999)" >&2; exit 2; }
case $only in ''|amcbf|backfill) ;; *) echo "--only: amcbf or backfill, not '$only'" >&2; exit 2 ;; esac
[ -f "$DFRS_BUILD/plugins/sched_amcbf.so" ] ||
	{ echo "no $DFRS_BUILD/plugins/sched_amcbf.so: build first or set DFRS_BUILD" >&2; exit 1; }

t0=$SECONDS
say_clock=$t0
CLUSTER_DIR=""
results=()	# one table row per scheduler and kind
notes=()	# the lines under the table

stop_bench() {
	[ -n "$CLUSTER_DIR" ] || return 0
	say "stopping the cluster in $CLUSTER_DIR"
	stop_cluster
}
run_on_exit stop_bench

now() { date +%s.%N; }
loadavg() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"; }
# jobs of name $1 still in the queue (any state squeue shows by default)
queued() { squeue -h -n "$1" -o %i 2>/dev/null | wc -l; }
log_size() { stat -c %s "$CLUSTER_DIR/slurmctld.log"; }
log_from() { tail -c +$(($1 + 1)) "$CLUSTER_DIR/slurmctld.log"; }

# start_cluster NAME SCHED SELECT [local-cluster options...]
start_cluster() {
	local name=$1 sched=$2 select=$3
	shift 3
	CLUSTER_DIR=$bench_dir/throughput-$name
	export SLURM_CONF=$CLUSTER_DIR/slurm.conf
	mkdir -p "$bench_dir"
	say "starting $nodes nodes x $cpus CPUs with $sched + $select in $CLUSTER_DIR"
	"$cluster" start --dir "$CLUSTER_DIR" --nodes "$nodes" --cpus "$cpus" \
		--port 20700 --sched "$sched" --select "$select" "$@" >/dev/null ||
		die "cluster did not start"
}

# wait_empty NAME: until no job named NAME is in the queue (at most 30 min)
wait_empty() {
	local i
	for ((i = 0; i < 3600; i++)); do
		[ "$(queued "$1")" -eq 0 ] && return 0
		sleep 0.5
	done
	die "jobs named $1 still queued after 30 minutes"
}

# probe: PROBES single jobs on the idle cluster; prints "median p90 max" of
# the start latency in ms (sbatch's return to the script's date)
probe() {
	local i t_sub out lat=()
	out=$CLUSTER_DIR/probe
	mkdir -p "$out"
	for ((i = 1; i <= probes; i++)); do
		rm -f "$out/$i"
		sbatch -Q -n1 -t 1 -J tp-probe -o "$out/$i" --wrap 'date +%s.%N' >/dev/null
		t_sub=$(now)
		wait_empty tp-probe
		for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$out/$i" ] && break; sleep 0.1; done
		[ -s "$out/$i" ] || die "probe job $i wrote nothing to $out/$i"
		lat+=("$(awk -v s="$t_sub" '{ printf "%.0f", ($1 - s) * 1000; exit }' "$out/$i")")
		sleep 0.3
	done
	printf '%s\n' "${lat[@]}" | sort -n | awk '{ v[NR] = $1 }
		END { printf "%d %d %d\n", v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.999)], v[NR] }'
}

# burst NAME SBATCH-ARGS...: JOBS jobs named NAME, submitted by PARALLEL
# sbatch loops; sets sub_s (submitting took, s) and done_s (the first
# submission to an empty queue, s)
burst() {
	local name=$1 ts tsub
	shift
	ts=$(now)
	# shellcheck disable=SC2016  # a script for the inner bash, which expands it
	seq 1 "$jobs" | sb_args="-J $name -o /dev/null $*" xargs -P "$parallel" -n 50 bash -c '
		for _; do
			for try in 1 2 3; do
				# shellcheck disable=SC2086  # words, split on purpose
				sbatch -Q $sb_args >/dev/null 2>>"$0" && break
				sleep 0.2
			done
		done' "$CLUSTER_DIR/sbatch.err" || true
	tsub=$(now)
	wait_empty "$name"
	sub_s=$(awk -v a="$ts" -v b="$tsub" 'BEGIN { printf "%.1f", b - a }')
	done_s=$(awk -v a="$ts" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
}

# burst_array NAME: one array of ARRAY tasks named NAME; sets sub_s, done_s
burst_array() {
	local ts tsub
	ts=$(now)
	sbatch -Q --array="1-$array" -n1 -t 1 -J "$1" -o /dev/null --wrap /bin/true >/dev/null
	tsub=$(now)
	wait_empty "$1"
	sub_s=$(awk -v a="$ts" -v b="$tsub" 'BEGIN { printf "%.1f", b - a }')
	done_s=$(awk -v a="$ts" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
}

# latency NAME: "completed median p90 max" of StartTime - SubmitTime (s) of
# the jobs named NAME in the job completion records
latency() {
	python3 - "$CLUSTER_DIR/jobcomp.txt" "$1" <<'PY'
import sys, datetime
path, name = sys.argv[1:3]
lat, done = [], 0
def t(v):
    return datetime.datetime.strptime(v, "%Y-%m-%dT%H:%M:%S")
for line in open(path):
    f = dict(w.split("=", 1) for w in line.split() if "=" in w)
    if f.get("Name") != name:
        continue
    done += f.get("JobState") == "COMPLETED"
    if f.get("StartTime", "Unknown") != "Unknown" and f.get("SubmitTime", "Unknown") != "Unknown":
        lat.append((t(f["StartTime"]) - t(f["SubmitTime"])).total_seconds())
lat.sort()
if not lat:
    print(done, "-", "-", "-")
else:
    n = len(lat)
    print(done, "%.0f" % lat[(n - 1) // 2], "%.0f" % lat[min(n - 1, int(n * 0.9 + 0.999) - 1)],
          "%.0f" % lat[-1])
PY
}

# amcbf_cycles FILE: "C A S M MS" from the per-cycle lines "cycle: X ms, N
# actions" of log FILE: cycles, cycles that acted, mean and max actions of
# those, and the cycles' mean ms
amcbf_cycles() {
	sed -n 's/.* cycle: \([0-9.]*\) ms, \([0-9]*\) actions.*/\1 \2/p' "$1" |
		awk '{ c++; ms += $1; if ($2 > 0) { a++; s += $2; if ($2 > m) m = $2 } }
		END { printf "%d %d %.1f %d %.1f\n", c, a, a ? s / a : 0, m, c ? ms / c : 0 }'
}

# sdiag_section FIRST LAST: sdiag's lines from FIRST to LAST (patterns)
sdiag_section() { sdiag | sed -n "/^$1/,/^$2/p"; }
sdiag_field() { sed -n "s/^[[:space:]]*$1:[[:space:]]*\([0-9]*\).*/\1/p" <<<"$2" | head -1; }

# amcbf_notes KIND: restart slurmctld (the plugin logs its stats line and
# starts the next burst's from zero) and note what the log of KIND says
amcbf_notes() {
	local kind=$1 log st c a s m ms l
	"$cluster" restart-controller --dir "$CLUSTER_DIR" >/dev/null
	log=$CLUSTER_DIR/$kind.log
	log_from "$off" > "$log"
	st=$(awk '/ stats: [0-9]+ cycles/ && !n++' "$log")
	read -r c a s m ms < <(amcbf_cycles "$log")
	l="$c cycles (mean $ms ms), $a of them started jobs ($s starts each on average, at most $m)"
	[ "$kind" = probe ] || l="$l, $(awk -v c="$c" -v t="$done_s" 'BEGIN { printf "%.2f", c / t }') cycles/s"
	notes+=("amcbf $kind: ${st#*stats: }" "amcbf $kind: $l")
	while read -r l; do
		notes+=("amcbf $kind: read phase:${l#*read phase:}")
	done < <(grep -h 'read phase:' "$log" || true)
}

# backfill_notes KIND: sdiag's main scheduler and backfill over KIND
backfill_notes() {
	local m b
	m=$(sdiag_section 'Main schedule statistics' 'Backfilling stats')
	b=$(sdiag_section 'Backfilling stats' 'Latency')
	notes+=("backfill $1: main scheduler $(sdiag_field 'Total cycles' "$m") cycles, mean $(sdiag_field 'Mean cycle' "$m") us, max $(sdiag_field 'Max cycle' "$m") us, mean depth $(sdiag_field 'Mean depth cycle' "$m"); backfill cycles $(sdiag_field 'Total cycles' "$b"), $(sdiag_field 'Total backfilled jobs (since last stats cycle start)' "$b") backfilled")
}

# run_kinds SCHED: the probe and the bursts on the running cluster
run_kinds() {
	local sched=$1 kind name row p50 p90 pmax done_n l50 l90 lmax shape
	for kind in ${kinds//,/ }; do
		name=tp-$kind
		off=$(log_size)
		[ "$sched" = backfill ] && sdiag -r >/dev/null
		say "$sched: $kind; $(loadavg)"
		case $kind in
		probe)
			read -r p50 p90 pmax < <(probe)
			row="| $sched | idle, $probes single jobs one by one | | | | $probes | median $p50 ms, p90 $p90 ms, max $pmax ms (to the script's first instruction) |"
			;;
		core|node)
			if [ "$kind" = core ]; then
				shape=(-n1)
			else
				shape=(-N1 --exclusive)
			fi
			burst "$name" "${shape[@]}" -t 1 --wrap /bin/true
			read -r done_n l50 l90 lmax < <(latency "$name")
			row="| $sched | $jobs x \`${shape[*]}\` | $sub_s s | $done_s s | $(awk -v n="$jobs" -v t="$done_s" 'BEGIN { printf "%.1f", n / t }') | $done_n | median $l50 s, p90 $l90 s, max $lmax s |"
			;;
		array)
			burst_array "$name"
			read -r done_n l50 l90 lmax < <(latency "$name")
			row="| $sched | 1 array of $array tasks, \`-n1\` | $sub_s s | $done_s s | $(awk -v n="$array" -v t="$done_s" 'BEGIN { printf "%.1f", n / t }') | $done_n | median $l50 s, p90 $l90 s, max $lmax s |"
			;;
		*) die "--kinds: probe, core, node or array, not '$kind'" ;;
		esac
		say "$row"
		results+=("$row")
		if [ "$sched" = amcbf ]; then
			amcbf_notes "$kind"
		else
			backfill_notes "$kind"
		fi
		notes+=("$sched $kind: uptime:$(uptime)")
	done
}

say "bench: $jobs jobs a burst on $nodes nodes x $cpus CPUs, $parallel sbatch loops; plugins from $DFRS_BUILD/plugins"
if [ "$only" != amcbf ]; then
	start_cluster backfill sched/backfill select/cons_tres --conf SelectTypeParameters=CR_Core
	run_kinds backfill
	stop_bench
fi
if [ "$only" != backfill ]; then
	start_cluster amcbf sched/amcbf select/dfrs \
		--sched-params "amcbf_mode=amcbf${extra_params:+,$extra_params}"
	run_kinds amcbf
	stop_bench
fi

echo
echo "| scheduler | burst | submitted in | queue empty after | jobs/s | completed | start latency |"
echo "|---|---|---:|---:|---:|---:|---|"
printf '%s\n' "${results[@]}"
echo
printf '%s\n' "${notes[@]}"
echo "bench: wall time $((SECONDS - t0)) s"
