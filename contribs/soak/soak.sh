#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# contribs/soak/soak.sh: sched/amcbf + select/dfrs under a stream of jobs
# and injected faults, and whether every job ran exactly once.
#
# For each mode (amcbf: consolidation backfill with preemption and both CPU
# tiers; dfrs: online DFRS, GreedyPM) a local cluster of NODES nodes
# (select/dfrs, CR_Memory, availability policy threshold on 5 s slots)
# gets jobs at a steady rate for MINUTES/2 minutes (1 to 3 nodes, 1 to 8 s,
# CPU need 0.3 to 1), while faults are injected on a schedule drawn from
# SEED, one every FAULT_EVERY seconds:
#   ctld      slurmctld restarted on its saved state
#   slurmd    one node's slurmd killed, restarted 3 s later
#   reconf    scontrol reconfigure with a bad value, then the good one
#   corrupt   amcbf-state.json and dfrs-availability.json corrupted while
#             slurmctld is down for a restart
#   drain     one node drained (OFF for the availability policy), resumed
#             10 s later
# and, with --accounting (the cluster's accounting database: MariaDB and a
# slurmdbd, contribs/local-cluster --accounting):
#   dbd-kill  slurmdbd killed with SIGKILL, started again 5 s later
#   dbd-stop  slurmdbd stopped cleanly (SIGTERM), started again 5 s later
#   (meanwhile slurmctld queues its accounting messages and sends them once
#   slurmdbd is back)
# With --faults-in-turn the kinds come in a fixed order instead (ctld,
# slurmd, reconf, corrupt, drain, then dbd-kill and dbd-stop with
# --accounting), and submissions go on past MINUTES/2 until every kind has
# come once: a short run still injects each kind, however slow the machine.
# Then submissions stop, and it waits (up to DRAIN seconds) for the queue
# to empty.  From what sbatch returned, jobcomp.txt and squeue it counts:
#   submitted, completed exactly once, duplicated (more than one COMPLETED
#   record), lost (no COMPLETED record and not in the queue), unfinished
#   (still in the queue after DRAIN seconds: slow, or stuck; the queue is
#   listed in stuck.txt), ended otherwise (FAILED, NODE_FAIL, CANCELLED,
#   TIMEOUT: a job killed with its slurmd is not lost);
# with --accounting it also waits for slurmctld's queue of messages to
# slurmdbd to empty (sdiag, up to 120 s) and compares `sacct -D` with
# jobcomp.txt: per job, the number of COMPLETED records in each (sacct
# agrees when they are equal), and counts the jobs sacct lost or duplicated;
# and samples slurmctld's CPU time and RSS every 5 s (each restart starts a
# new process: RSS is compared within one process's life).
#
#   contribs/soak/soak.sh [--minutes 10] [--rate 2] [--seed 1] [--nodes 6]
#       [--fault-every 20] [--drain 300] [--modes amcbf,dfrs] [--port 19800]
#       [--accounting] [--faults-in-turn]
#
# --rate is jobs per second.  Run as root under the cluster lock:
#   flock /tmp/dfrs-cluster.lock nice -n 10 contribs/soak/soak.sh
# Exits non-zero if any job is lost or duplicated, or unfinished, or (with
# --accounting) sacct disagrees with jobcomp.txt.  Clusters
# live in $DFRS_BUILD/soak (default build/soak); a benchmark, not a test:
# how long the queue takes to drain depends on the machine.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
export DFRS_BUILD=${DFRS_BUILD:-$top/build}
cluster=$top/contribs/local-cluster
CTLD=/usr/sbin/slurmctld-wlm
SLURMD=/usr/sbin/slurmd-wlm-emulator
minutes=10 rate=2 seed=1 nodes=6 fault_every=20 drain=300 modes=amcbf,dfrs port=19800
accounting=0 in_turn=0 DBD=/usr/sbin/slurmdbd

. "$(dirname "$0")/../lib.sh"	# say, usage, stop_cluster, run_on_exit
while [ $# -gt 0 ]; do
	case $1 in
	--minutes) minutes=$2; shift 2 ;;
	--rate) rate=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--nodes) nodes=$2; shift 2 ;;
	--fault-every) fault_every=$2; shift 2 ;;
	--drain) drain=$2; shift 2 ;;
	--modes) modes=$2; shift 2 ;;
	--port) port=$2; shift 2 ;;
	--accounting) accounting=1; shift ;;
	--faults-in-turn) in_turn=1; shift ;;
	-h|--help) usage ;;
	*) echo "unknown option '$1'" >&2; usage ;;
	esac
done

t0=$SECONDS
say_clock=$t0
CLUSTER_DIR=""
run_on_exit stop_cluster

# the first line only: 24.11 rewrites the pid file in place on reconfigure
ctld_pid() { head -n 1 "$CLUSTER_DIR/slurmctld.pid" 2>/dev/null; }
ctld_up() { scontrol ping 2>/dev/null | grep UP >/dev/null; }

# ctld_restart [corrupt]: stop slurmctld, with "corrupt" damage its state
# files meanwhile (corrupt_files), start it again on its saved state
ctld_restart() {
	local pid i
	pid=$(ctld_pid) || return 1
	kill "$pid" 2>/dev/null || true
	for ((i = 0; i < 120; i++)); do
		[ -d "/proc/$pid" ] || break
		sleep 0.25
	done
	[ "${1:-}" != corrupt ] || corrupt_files
	# under the name slurmctld, as local-cluster starts it: as slurmctld-wlm
	# its accounting plugin would not keep its connection to slurmdbd
	(exec -a slurmctld "$CTLD" -f "$SLURM_CONF") || say "warning: slurmctld did not start again"
	for ((i = 0; i < 80; i++)); do ctld_up && return 0; sleep 0.25; done
	say "warning: slurmctld not answering after its restart"
}

corrupt_files() {
	echo '{"version": 1, "jobs": [' >"$CLUSTER_DIR/state/amcbf-state.json"
	echo '{"nodes": [' >"$CLUSTER_DIR/state/dfrs-availability.json"
}

# dbd_restart SIGNAL: slurmdbd ended by SIGNAL, started again 5 s later
# (it reads slurmdbd.conf beside $SLURM_CONF)
dbd_restart() {
	local pid i
	pid=$(head -n 1 "$CLUSTER_DIR/slurmdbd.pid" 2>/dev/null) || return 0
	[ "/proc/$pid/exe" -ef "$DBD" ] || { say "warning: no slurmdbd to restart"; return 0; }
	kill "-$1" "$pid" 2>/dev/null || true
	for ((i = 0; i < 80; i++)); do
		[ -d "/proc/$pid" ] || break
		sleep 0.25
	done
	sleep 5
	"$DBD" || say "warning: slurmdbd did not start again"
}

# the number of fault kinds (two more with --accounting)
fault_kinds() { echo $((accounting ? 7 : 5)); }
# one fault, chosen by the seeded $RANDOM, or kind $1 (--faults-in-turn)
fault() {
	local n=n$((1 + RANDOM % nodes)) kind pid k=$((RANDOM % $(fault_kinds)))
	[ -n "${1:-}" ] && k=$1
	case $k in
	0) kind=ctld; ctld_restart ;;
	1) kind="slurmd $n"
	   if pid=$(head -n 1 "$CLUSTER_DIR/slurmd-$n.pid" 2>/dev/null); then kill "$pid" 2>/dev/null || true; fi
	   sleep 3
	   "$SLURMD" -f "$SLURM_CONF" -N "$n" || say "warning: slurmd $n did not restart" ;;
	2) kind=reconf
	   sed -i "s/^SchedulerParameters=.*/&,amcbf_interval=abc/" "$SLURM_CONF"
	   scontrol reconfigure || true
	   sleep 2
	   sed -i "s/,amcbf_interval=abc$//" "$SLURM_CONF"
	   scontrol reconfigure || true ;;
	3) kind=corrupt; ctld_restart corrupt ;;
	4) kind="drain $n"
	   scontrol update nodename="$n" state=drain reason=soak || true
	   ( sleep 10; scontrol update nodename="$n" state=resume 2>/dev/null || true ) & ;;
	5) kind=dbd-kill; dbd_restart KILL ;;
	6) kind=dbd-stop; dbd_restart TERM ;;
	esac
	echo "$((SECONDS - t0)) $kind" >>"$CLUSTER_DIR/faults.txt"
}

# sample slurmctld's CPU seconds and RSS (kB) now
sample() {
	local pid stat rss
	pid=$(ctld_pid) && [ -r "/proc/$pid/stat" ] || return 0
	stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 0
	rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null) || return 0
	awk -v t=$((SECONDS - t0)) -v pid="$pid" -v rss="$rss" -v hz="$(getconf CLK_TCK)" \
		'{ printf "%d %d %.2f %d\n", t, pid, ($12 + $13) / hz, rss }' <<<"${stat##*) }" \
		>>"$CLUSTER_DIR/samples.txt"
}

run_mode() {
	local mode=$1 params part secs end next_fault next_sample i id left acct=() nfaults=0
	CLUSTER_DIR=$DFRS_BUILD/soak/$mode
	export SLURM_CONF=$CLUSTER_DIR/slurm.conf
	params="amcbf_mode=$mode,amcbf_interval=5,amcbf_avail_policy=threshold,amcbf_avail_slot=5,amcbf_avail_migration_cost=20"
	part=OverSubscribe=FORCE:2
	[ "$mode" = dfrs ] && part=OverSubscribe=FORCE:8
	[ "$accounting" = 1 ] && acct=(--accounting)
	"$cluster" start --dir "$CLUSTER_DIR" --nodes "$nodes" --port "$port" \
		--sched-params "$params" --conf SelectTypeParameters=CR_Memory \
		--conf DefMemPerNode=1024 --part-extra "$part" --debug info "${acct[@]}" >/dev/null
	: >"$CLUSTER_DIR/submitted.txt" ; : >"$CLUSTER_DIR/faults.txt"
	: >"$CLUSTER_DIR/samples.txt"
	RANDOM=$seed
	secs=$((minutes * 60 / 2))
	end=$((SECONDS + secs)) next_fault=$((SECONDS + fault_every)) next_sample=$SECONDS
	say "$mode: $secs s of jobs at $rate/s, a fault every $fault_every s (seed $seed)"
	# with --faults-in-turn, until every kind of fault has come once too
	while [ $SECONDS -lt $end ] || { [ "$in_turn" = 1 ] && [ "$nfaults" -lt "$(fault_kinds)" ]; }; do
		for ((i = 0; i < rate; i++)); do
			id=$(sbatch --parsable -o /dev/null -N $((1 + RANDOM % 3)) \
				--comment="dfrs:need=0.$((3 + RANDOM % 7))" \
				--wrap "sleep $((1 + RANDOM % 8))" 2>/dev/null | cut -d';' -f1) || true
			[ -n "$id" ] && echo "$id" >>"$CLUSTER_DIR/submitted.txt"
		done
		[ $SECONDS -ge $next_sample ] && { sample; next_sample=$((SECONDS + 5)); }
		if [ $SECONDS -ge $next_fault ]; then
			if [ "$in_turn" = 1 ]; then fault $((nfaults % $(fault_kinds))); else fault; fi
			nfaults=$((nfaults + 1))
			next_fault=$((SECONDS + fault_every))
		fi
		sleep 1
	done
	say "$mode: $(wc -l <"$CLUSTER_DIR/submitted.txt") submitted; waiting up to $drain s for the queue to empty"
	for ((i = 0; i < drain; i++)); do
		left=$(squeue -h -o %i 2>/dev/null | wc -l) || left=unknown
		[ "$left" = 0 ] && ctld_up && break
		[ $((i % 5)) = 0 ] && sample
		sleep 1
	done
	sample
	squeue -h -o '%i %T %r' >"$CLUSTER_DIR/stuck.txt" 2>/dev/null || true
	[ "$accounting" = 1 ] && read_sacct
	report "$mode"
	stop_cluster
}

# read_sacct: once slurmctld has sent slurmdbd everything it queued, every
# record of every job (-D: the runs a requeue ended too) into sacct.txt
read_sacct() {
	local i q
	for ((i = 0; i < 120; i++)); do
		q=$(sdiag 2>/dev/null | awk -F: '/DBD Agent queue size/ { gsub(/ /, "", $2); print $2 }')
		[ "$q" = 0 ] && break
		sleep 1
	done
	[ "$q" = 0 ] || say "warning: slurmctld's queue to slurmdbd still holds '${q:-?}' messages"
	sacct -a -D -X -n -P -S 2000-01-01 -o JobID,State >"$CLUSTER_DIR/sacct.txt" 2>/dev/null ||
		say "warning: sacct failed"
}

# count what happened to every submitted job
report() {
	local mode=$1 dir=$CLUSTER_DIR
	python3 - "$mode" "$dir" <<'PY'
import collections, re, sys
mode, d = sys.argv[1:3]
sub = [l.strip() for l in open(d + "/submitted.txt") if l.strip()]
recs = collections.defaultdict(list)
for l in open(d + "/jobcomp.txt"):
    m = re.match(r"JobId=(\d+) .*JobState=(\S+)", l)
    if m:
        recs[m.group(1)].append(m.group(2))
stuck = {l.split()[0] for l in open(d + "/stuck.txt") if l.strip()}
once = dup = lost = other = 0
others = collections.Counter()
for j in sub:
    c = recs[j].count("COMPLETED")
    if c == 1: once += 1
    elif c > 1: dup += 1
    elif j in stuck: pass
    else:
        ends = [s for s in recs[j] if s not in ("PREEMPTED", "REQUEUED")]
        if ends: other += 1; others[ends[-1]] += 1
        else: lost += 1
nstuck = len([j for j in sub if j in stuck])
samples = [l.split() for l in open(d + "/samples.txt") if l.strip()]
by_pid = collections.OrderedDict()
for t, pid, cpu, rss in samples:
    by_pid.setdefault(pid, []).append((int(t), float(cpu), int(rss)))
faults = [l.strip() for l in open(d + "/faults.txt") if l.strip()]
kinds = collections.Counter(f.split()[1] for f in faults)
print(f"{mode}: submitted {len(sub)}, completed exactly once {once}, duplicated {dup}, "
      f"lost {lost}, unfinished after the drain wait {nstuck}, ended otherwise {other} {dict(others) or ''}")
print(f"{mode}: faults {len(faults)}: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
for pid, s in by_pid.items():
    (t0, c0, r0), (t1, c1, r1) = s[0], s[-1]
    print(f"{mode}: slurmctld pid {pid}: {t0}-{t1} s, CPU {c1 - c0:.1f} s "
          f"({100 * (c1 - c0) / max(t1 - t0, 1):.1f}%), RSS {r0 // 1024} -> {r1 // 1024} MB")
acct_bad = 0
import os
if os.path.exists(d + "/sacct.txt"):
    sa = collections.defaultdict(list)
    for l in open(d + "/sacct.txt"):
        w = l.strip().split("|")
        if len(w) == 2:
            sa[w[0]].append(w[1].split()[0])
    agree = s_once = s_dup = s_lost = 0
    bad_ids = []
    for j in sub:
        c, jc = sa[j].count("COMPLETED"), recs[j].count("COMPLETED")
        if c == jc: agree += 1
        else: bad_ids.append(j)
        if c == 1: s_once += 1
        elif c > 1: s_dup += 1
        elif j not in stuck and not [s for s in sa[j] if s not in ("PREEMPTED", "REQUEUED", "PENDING", "RUNNING")]: s_lost += 1
    acct_bad = len(bad_ids)
    print(f"{mode}: sacct: completed exactly once {s_once}, duplicated {s_dup}, no record of an end {s_lost}; "
          f"agrees with jobcomp on {agree} of {len(sub)} jobs" + (f" (differs: {' '.join(bad_ids[:20])})" if bad_ids else ""))
open(d + "/verdict", "w").write("ok\n" if not (dup or lost or nstuck or acct_bad) else "bad\n")
PY
}

bad=0
for mode in ${modes//,/ }; do
	run_mode "$mode"
	grep -qx ok "$DFRS_BUILD/soak/$mode/verdict" || bad=1
done
say "soak: done"
exit $bad
