# shellcheck shell=bash
# test/integration/lib.sh - helpers for integration tests on a local cluster.
# Sourced by test/integration/test_*.sh.  Each test starts its own cluster in
# its own directory through contribs/local-cluster and always stops it.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${DFRS_BUILD:-$top/build}
# the Slurm this build is for (configure writes slurm.env): its commands first
DFRS_SLURM_VERSION="" DFRS_SLURM_PREFIX=""
# shellcheck source=../../contribs/slurm.env.in  # configure writes slurm.env from it
[ -f "$build/slurm.env" ] && . "$build/slurm.env"
[ -z "$DFRS_SLURM_PREFIX" ] || export PATH=$DFRS_SLURM_PREFIX/bin:$PATH
cluster=$top/contribs/local-cluster
test_name=$(basename "$0" .sh)
failures=0

# slurm_at_least MAJOR.MINOR: the build's Slurm is that release or later
slurm_at_least() {
	[ "$(printf '%s\n%s\n' "$1" "${DFRS_SLURM_VERSION%.*}" | sort -V | head -1)" = "$1" ]
}

# start_cluster NAME [local-cluster start options...]
start_cluster() {
	local name=$1; shift
	CLUSTER_DIR=$build/test-clusters/$test_name-$name
	export SLURM_CONF=$CLUSTER_DIR/slurm.conf
	trap 'stop_cluster' EXIT
	"$cluster" start --dir "$CLUSTER_DIR" "$@"
}

stop_cluster() {
	[ -n "${CLUSTER_DIR:-}" ] || return 0
	"$cluster" stop --dir "$CLUSTER_DIR" >/dev/null 2>&1 || true
}

fail() {
	echo "FAIL: $test_name: $*"
	failures=$((failures + 1))
}

# submit ARGS... : sbatch, prints the job id
submit() {
	sbatch --parsable -o /dev/null "$@" | cut -d';' -f1
}

# wait_jobs_done TIMEOUT JOBID... : until none of the jobs is pending/running;
# the command in the array wait_each, when set, runs once a second meanwhile
wait_each=()
wait_jobs_done() {
	local timeout=$1; shift
	local ids; ids=$(IFS=,; echo "$*")
	local deadline=$((SECONDS + timeout))
	while [ $SECONDS -lt $deadline ]; do
		if [ -z "$(squeue -h -j "$ids" -t PD,R,S,CG,CF,RQ,RS -o %i 2>/dev/null)" ]; then
			return 0
		fi
		[ ${#wait_each[@]} = 0 ] || "${wait_each[@]}"
		sleep 1
	done
	fail "jobs still active after ${timeout}s:"
	squeue -j "$ids" >&2 || true
	return 1
}

# wait_for [-t SECONDS] DESCRIPTION COMMAND...: COMMAND succeeds within
# SECONDS (default 10, whole seconds), tried every 0.25 s, else fail
wait_for() {
	local secs=10 what i
	if [ "$1" = -t ]; then
		secs=$2
		shift 2
	fi
	what=$1
	shift
	for ((i = 0; i < 4 * secs; i++)); do
		"$@" && return 0
		sleep 0.25
	done
	fail "$what (waited $secs s)"
	return 1
}

# in_range N LOW HIGH: LOW <= N <= HIGH (whole numbers)
in_range() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

# cpu_mount: where the cgroup v1 cpu controller is mounted (empty if not)
cpu_mount() {
	awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ {print $2; exit}' /proc/mounts
}

# state_is JOBID STATE: squeue shows the job in STATE
state_is() { [ "$(squeue -h -j "$1" -o %T)" = "$2" ]; }

# reason_is JOBID REASON: squeue shows the job pending with REASON
reason_is() { [ "$(squeue -h -j "$1" -o '%T %r')" = "PENDING $2" ]; }

# sacct_of JOBID FIELD: the field of the job's allocation as sacct records it
# (accounting clusters only)
sacct_of() { sacct -n -X -P -j "$1" -o "$2" 2>/dev/null | head -1; }

# sacct_completed JOBID...: sacct records every job COMPLETED.  slurmdbd's record
# follows slurmctld's by a moment (more on a loaded machine): wait for it,
# e.g. wait_for -t 20 "sacct has the jobs completed" sacct_completed ID...
sacct_completed() {
	local j
	for j in "$@"; do
		[ "$(sacct_of "$j" State)" = COMPLETED ] || return 1
	done
}

# log_has [-f LINE] PATTERN: some line of slurmctld's log (from line LINE
# on, e.g. one past the count before a reconfigure) matches PATTERN, a basic
# regular expression
log_has() {
	local from=1
	if [ "$1" = -f ]; then
		from=$2
		shift 2
	fi
	tail -n "+$from" "$CLUSTER_DIR/slurmctld.log" | grep -- "$1" >/dev/null
}

# ping_up N: scontrol ping says the Nth controller is UP (1 the primary,
# 2 the backup)
ping_up() {
	local out
	out=$(scontrol ping 2>/dev/null)
	sed -n "$1p" <<<"$out" | grep 'is UP' >/dev/null
}

# registered NODE: slurmctld has heard from the node's slurmd since it
# started (neither State=UNKNOWN nor NOT_RESPONDING)
registered() {
	local out
	out=$(scontrol show node "$1" 2>/dev/null) &&
		! grep 'NOT_RESPONDING\|State=UNKNOWN' <<<"$out" >/dev/null
}

# comment_of JOBID: the job's SystemComment (the DFRS tags select/dfrs and
# sched/amcbf write there), blanks removed; comment_is JOBID TEXT: it is TEXT
comment_of() { scontrol show job "$1" | sed -n 's/^ *SystemComment=//p' | tr -d ' '; }
comment_is() { [ "$(comment_of "$1")" = "$2" ]; }

# shares_is NODE JOBID WEIGHT: the node agent set cpu.shares WEIGHT on the
# job's cgroup under the node's group dfrs/NODE (cgroup v1 cpu controller);
# NODE is a path below dfrs/, e.g. n1 or c17740/n1
shares_is() { [ "$(cat "$(cpu_mount)/dfrs/$1/job_$2/cpu.shares" 2>/dev/null)" = "$3" ]; }

# preempt_tried: sched/amcbf tried to take a running job off its nodes:
# a requeue done, one Slurm refused, or a checkpoint signal before one
preempt_tried() {
	log_has "(requeued, preemption \|could not requeue JobId=\|checkpoint: sent SIG"
}

# restarts JOBID: Slurm's restart count of the job
restarts() { scontrol show job "$1" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p'; }

# jc_time JOBID STATE FIELD: FIELD (StartTime, EndTime) of the job's first
# jobcomp record in STATE, in seconds since the epoch (empty if none)
jc_time() {
	local t
	t=$(grep -E "^JobId=$1 .* JobState=$2 " "$CLUSTER_DIR/jobcomp.txt" | head -1 |
		sed -n "s/.* $3=\([^ ]*\).*/\1/p")
	[ -n "$t" ] && date -d "$t" +%s || echo ""
}

# jobcomp_state JOBID : the JobState of each jobcomp record for JOBID, one a line
jobcomp_state() {
	grep -E "^JobId=$1 " "$CLUSTER_DIR/jobcomp.txt" |
		sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p'
}

# assert_completed_once JOBID... : exactly one COMPLETED jobcomp record each;
# any other record must be a run lost to preemption (PREEMPTED, REQUEUED)
assert_completed_once() {
	local id states completed other
	for id in "$@"; do
		states=$(jobcomp_state "$id")
		completed=$(grep -cx COMPLETED <<<"$states" || true)
		other=$(grep -vxE 'COMPLETED|PREEMPTED|REQUEUED' <<<"$states" | grep -c . || true)
		if [ "$completed" != 1 ] || [ "$other" != 0 ]; then
			fail "job $id: jobcomp records '$(xargs <<<"$states")' (want exactly one COMPLETED)"
		fi
	done
}

# burst_stats GPUS JOB-GPUS JOBID... : from the jobs' COMPLETED jobcomp
# records (whole seconds), one line "makespan WAIT_MEAN CPUS GPUS IDLE": the
# first submit to the last end, the mean of start - submit, the most CPUs
# (ProcCnt) and GPUs (JOB-GPUS a job: without slurmdbd Slurm records no
# gres/gpu TRES) in use at once, and the seconds in
# which, from the first start on, a GPU job waited while fewer than GPUS
# GPUs were in use and no GPU job had ended in the 2 s before (the time
# Slurm takes to start the next)
burst_stats() {
	local gpus=$1 per=$2
	shift 2
	python3 - "$CLUSTER_DIR/jobcomp.txt" "$gpus" "$per" "$@" <<'PY'
import re, sys
from datetime import datetime
path, total, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ids = set(sys.argv[4:])
def t(v):
    return datetime.strptime(v, "%Y-%m-%dT%H:%M:%S").timestamp()
jobs = []
for line in open(path):
    f = dict(re.findall(r"(\w+)=(\S*)", line))
    if f.get("JobId") not in ids or f.get("JobState") != "COMPLETED":
        continue
    jobs.append((t(f["SubmitTime"]), t(f["StartTime"]), t(f["EndTime"]),
                 int(f["ProcCnt"]), per))
if not jobs:
    print("0 0 0 0 0")
    sys.exit()
first, last = min(j[0] for j in jobs), max(j[2] for j in jobs)
wait = sum(j[1] - j[0] for j in jobs) / len(jobs)
cpus = gpus = idle = 0
begun = min(j[1] for j in jobs)
sec = first
while sec <= last:
    at = sec + 0.5
    run = [j for j in jobs if j[1] <= at < j[2]]
    cpus = max(cpus, sum(j[3] for j in run))
    used = sum(j[4] for j in run)
    gpus = max(gpus, used)
    waiting = any(j[4] and j[0] <= at < j[1] for j in jobs)
    ended = any(j[4] and at - 2.5 <= j[2] <= at for j in jobs)
    if total and waiting and used < total and not ended and at > begun:
        idle += 1
    sec += 1
print("%d %.1f %d %d %d" % (last - first, wait, cpus, gpus, idle))
PY
}

# within_of VALUE REF FACTOR SLACK: VALUE <= REF * FACTOR + SLACK
within_of() {
	awk -v v="$1" -v r="$2" -v f="$3" -v s="$4" 'BEGIN { exit !(v <= r * f + s) }'
}

# gpus_held: one line "NODE:INDEX JOBID" for each GPU a running job holds,
# from scontrol -d show job's "Nodes=N ... GRES=gpu:K(IDX:a-b,c)" (Slurm's
# own record of which GPU it gave each job)
gpus_held() {
	scontrol -d show job 2>/dev/null | awk '
	/^JobId=/ { split($1, f, "="); id = f[2]; run = 0 }
	/JobState=RUNNING/ { run = 1 }
	run && /^ *Nodes=/ && match($0, /IDX:[-0-9,]*/) {
		split($1, f, "="); node = f[2]
		n = split(substr($0, RSTART + 4, RLENGTH - 4), r, ",")
		for (i = 1; i <= n; i++) {
			if (split(r[i], ab, "-") == 1) ab[2] = ab[1]
			for (g = ab[1]; g <= ab[2]; g++) print node ":" g, id
		}
	}'
}

# sample_gpus: one look at gpus_held: gpu_shared counts the GPUs held by two
# jobs at once, gpu_most is the most GPUs held at once
gpu_shared=0 gpu_most=0
sample_gpus() {
	local held shared n
	held=$(gpus_held)
	n=$(cut -d' ' -f1 <<<"$held" | grep -c . || true)
	shared=$(cut -d' ' -f1 <<<"$held" | sort | uniq -d | grep -c . || true)
	[ "$shared" = 0 ] || echo "  GPUs held by two jobs: $(xargs <<<"$held")"
	gpu_shared=$((gpu_shared + shared))
	[ "$n" -le "$gpu_most" ] || gpu_most=$n
}

# burst_within_ref LABEL: stats's makespan and mean wait at most 1.05 times
# the reference's ref_span and ref_wait (plus 2 s and 1 s: jobcomp records
# whole seconds); the test sets ref_span and ref_wait from the reference's
ref_span=0 ref_wait=0
burst_within_ref() {
	local span wait
	read -r span wait _ <<<"$stats"
	within_of "$span" "$ref_span" 1.05 2 ||
		fail "$1: makespan $span s, want at most 1.05 x sched/backfill's $ref_span s (+2 s)"
	within_of "$wait" "$ref_wait" 1.05 1 ||
		fail "$1: mean wait $wait s, want at most 1.05 x sched/backfill's $ref_wait s (+1 s)"
}

# run_burst NAME START-OPTIONS...: a cluster NAME (start_cluster with the
# options), burst_jobs jobs submitted at once (sbatch with the array
# burst_args, --wrap "sleep burst_secs", burst_job_gpus GPUs each), all
# COMPLETED exactly once; sets stats to burst_stats's line for burst_gpus
# GPUs (empty if the cluster did not start), and, with GPU jobs,
# gpu_shared and gpu_most from sample_gpus once a second while they run;
# then stops the cluster
burst_jobs=0 burst_secs=1 burst_gpus=0 burst_job_gpus=0 burst_args=() stats=""
# burst_mode_opts MODE: into the array opts, the local-cluster options that
# run sched/amcbf's amcbf_mode=MODE on the site's select/cons_tres: the
# shared partition (OverSubscribe=FORCE:2) for the tiered modes, and dfrs
# through select/dfrs (over cons_tres)
burst_mode_opts() {
	opts=(--sched sched/amcbf --select select/cons_tres
	      --sched-params "amcbf_mode=$1")
	case $1 in
	amcbf|cmcbf) opts+=(--part-extra OverSubscribe=FORCE:2) ;;
	dfrs) opts=(--sched sched/amcbf --select select/dfrs
		    --sched-params "amcbf_mode=dfrs" --part-extra OverSubscribe=FORCE:2) ;;
	esac
}

run_burst() {
	local name=$1 ids=() i
	shift
	stats=""
	if ! start_cluster "$name" "$@"; then
		fail "$name: cluster did not start"
		stop_cluster	# what start left running
		return 1
	fi
	for ((i = 0; i < burst_jobs; i++)); do
		ids+=("$(submit "${burst_args[@]}" --wrap "sleep $burst_secs")")
	done
	gpu_shared=0 gpu_most=0 wait_each=()
	[ "$burst_job_gpus" = 0 ] || wait_each=(sample_gpus)
	wait_jobs_done $((burst_jobs * burst_secs + 60)) "${ids[@]}"
	wait_each=()
	assert_completed_once "${ids[@]}"
	stats=$(burst_stats "$burst_gpus" "$burst_job_gpus" "${ids[@]}")
	echo "  $name: makespan, mean wait, most CPUs and GPUs at once, GPU-idle seconds: $stats"
	stop_cluster
}

# start_j1_j2_j3 LABEL J1-SECONDS J2-SECONDS SBATCH-ARGS-OF-J3...: the
# scenario of test_amcbf_preempt.sh on 4 nodes: J1 (2 nodes, sleeps
# J1-SECONDS) runs, J2 (all 4, sleeps J2-SECONDS) waits for it, J3 (2 nodes,
# the arguments given, --wrap included) starts on the other 2; when J1 ends,
# CMBF would requeue J3 for J2 unless something exempts J3.  Sets j1, j2 and
# j3; LABEL ("ckpt: ", or "") begins the messages.
start_j1_j2_j3() {
	local label=$1 s1=$2 s2=$3
	shift 3
	j1=$(submit -N2 --wrap "sleep $s1")
	wait_for "${label}J1 running" state_is "$j1" RUNNING
	j2=$(submit -N4 --wrap "sleep $s2")
	j3=$(submit -N2 "$@")
	wait_for "${label}J3 running" state_is "$j3" RUNNING
}

# preempt_scenario MODE: start_j1_j2_j3 with J1 6 s, J2 2 s and J3 8 s,
# checks J2 waits while J1 runs, and waits for all three to complete once
# each; MODE begins the messages
preempt_scenario() {
	start_j1_j2_j3 "$1: " 6 2 --wrap 'sleep 8'
	state_is "$j2" PENDING || fail "$1: J2 (4 nodes) started while J1 held 2"
	wait_jobs_done 90 "$j1" "$j2" "$j3"
	assert_completed_once "$j1" "$j2" "$j3"
}

# assert_j2_after_j3 LABEL: jobcomp has J2 start once J3 had ended (J3 was
# not preempted for J2); LABEL begins the message
assert_j2_after_j3() {
	local s2 e3
	s2=$(jc_time "$j2" COMPLETED StartTime)
	e3=$(jc_time "$j3" COMPLETED EndTime)
	if [ -z "$s2" ] || [ -z "$e3" ] || ! [ "$s2" -ge "$e3" ]; then
		fail "${1}J2 started at '$s2', before J3 ended at '$e3'"
	fi
}

# qos_shows QOS TEXT: slurmctld's copy of the QOS (accounting clusters)
# shows TEXT, e.g. "Priority=5" once an update reached it
qos_shows() {
	scontrol show assoc_mgr flags=qos qos="$1" 2>/dev/null | grep -F -- "$2" >/dev/null
}

# limit_before_preemption NAME REASON P-ARGS Q-ARGS R-ARGS SEEN...: a limit
# is enforced before any preemption (2 nodes, CMBF, accounting): P runs, Q
# pends with REASON once slurmctld shows the limit (command SEEN... succeeds),
# R (later) runs on the idle node and completes, never preempted for Q
# (were Q given to the engine, CMBF would requeue R, and Slurm would then
# refuse Q); then P is cancelled and Q completes.  P-ARGS, Q-ARGS and R-ARGS
# are sbatch options, one string each, split at blanks.
limit_before_preemption() {
	local name=$1 reason=$2 pargs qargs rargs p q r j st
	read -r -a pargs <<<"$3"
	read -r -a qargs <<<"$4"
	read -r -a rargs <<<"$5"
	shift 5
	p=$(submit -N1 "${pargs[@]}" --wrap 'sleep 60')
	wait_for "$name: P running" state_is "$p" RUNNING
	wait_for "$name: slurmctld sees the limit" "$@"
	q=$(submit -N1 "${qargs[@]}" --wrap 'sleep 1')
	wait_for "$name: Q pending with reason $reason" reason_is "$q" "$reason"
	r=$(submit -N1 "${rargs[@]}" --wrap 'sleep 4')
	wait_for "$name: R running on the idle node" state_is "$r" RUNNING
	wait_jobs_done 30 "$r"
	reason_is "$q" "$reason" || fail "$name: job $q: $(squeue -h -j "$q" -o '%T %r') after R, want PENDING $reason"
	scancel "$p"
	wait_jobs_done 30 "$p" "$q"
	for j in "$q" "$r"; do
		st=$(sacct_of "$j" State)
		[ "$st" = COMPLETED ] || fail "$name: job $j: sacct State=$st, want COMPLETED"
	done
	[ "$(restarts "$r")" = 0 ] || fail "$name: R was requeued $(restarts "$r") times for Q"
	assert_completed_once "$q" "$r"
}

finish() {
	if [ "$failures" = 0 ]; then
		echo "PASS: $test_name"
		exit 0
	fi
	if [ -n "${CLUSTER_DIR:-}" ]; then
		echo "log tail ($CLUSTER_DIR/slurmctld.log):"
		tail -n 20 "$CLUSTER_DIR/slurmctld.log" 2>/dev/null | sed 's/^/  /'
	fi
	exit 1
}

# ctld_pid: slurmctld's pid, from the first line of its pid file (Slurm 24.11
# rewrites the file in place after `scontrol reconfigure`, and a shorter new
# pid leaves a digit or two of the old one on a second line)
ctld_pid() {
	local pid=""
	{ read -r pid || [ -n "$pid" ]; } 2>/dev/null < "$CLUSTER_DIR/slurmctld.pid" || return 1
	[ -n "$pid" ] && echo "$pid"
}

# ctld_cpu_seconds: CPU time (user + system) slurmctld has used so far, in
# seconds, from /proc/<pid>/stat (fields 14 and 15, in clock ticks)
ctld_cpu_seconds() {
	local pid stat
	pid=$(ctld_pid) || return 1
	stat=$(cat "/proc/$pid/stat") || return 1
	# the fields after the command name, which is in parentheses
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f\n", ($12 + $13) / hz }' \
		<<<"${stat##*) }"
}

# ctld_cpu_over SECONDS: slurmctld's CPU time over the next SECONDS
ctld_cpu_over() {
	local before after
	before=$(ctld_cpu_seconds) || return 1
	sleep "$1"
	after=$(ctld_cpu_seconds) || return 1
	awk -v a="$after" -v b="$before" 'BEGIN { printf "%.2f\n", a - b }'
}

# restart_ctld_with COMMAND...: stop slurmctld, run COMMAND (e.g. damage a
# state file or edit slurm.conf), start slurmctld again on its saved state
restart_ctld_with() {
	local pid i
	pid=$(ctld_pid) || { fail "no slurmctld pid"; return 1; }
	kill "$pid"
	for ((i = 0; i < 80; i++)); do
		[ -d "/proc/$pid" ] || break
		sleep 0.25
	done
	[ -d "/proc/$pid" ] && { fail "slurmctld (pid $pid) did not stop"; return 1; }
	"$@" || fail "$* failed"
	# the daemon contribs/local-cluster starts: Debian's 22.05, or the
	# prefix's 24.11 under its own name (slurm.env)
	local ctld=/usr/sbin/slurmctld-wlm
	[ -z "${DFRS_SLURM_PREFIX:-}" ] || ctld=$DFRS_SLURM_PREFIX/sbin/slurmctld
	# (under the name slurmctld: see run_ctld in contribs/local-cluster)
	(exec -a slurmctld "$ctld" -f "$SLURM_CONF") || { fail "slurmctld did not start"; return 1; }
	wait_for "slurmctld answering after its restart" ping_up 1
}
