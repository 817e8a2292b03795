#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_failover.sh - sched/amcbf + select/dfrs across slurmctld failovers
# (Slurm's high availability: two SlurmctldHost lines, one
# StateSaveLocation), with the accounting database.  contribs/local-cluster
# --backup runs the primary (hostname ctl1, 127.0.0.1) and the backup
# (ctl2, 127.0.0.2), each in its own UTS and mount namespaces.  4 nodes of
# 2 CPUs, amcbf_mode=amcbf (foreground/background tiers, Liu et al. 2013,
# Algorithms 2-4) with the availability policy wait (He et al. 2012: a job
# one of whose hosts goes OFF is suspended until it is ON again), node
# agents (CPU weights, measured needs, the need history).
#  A  `scontrol takeover` while a job runs in the background tier: the
#     backup takes control; its plugins read the saved state (virtual times,
#     availability models; the model rebuilt from the jobs); the job keeps
#     its tier and is promoted in place by the backup when its foreground
#     job ends.
#  C1 The primary, which exits on a takeover, is started again: it takes
#     control back and the backup returns to standby.
#  B  kill -9 of the primary during a loaded run, with a job in the
#     background tier and a job suspended by the availability policy: the
#     backup takes over after SlurmctldTimeout and reads the state the
#     primary last saved (1 suspended job, the need history); it resumes
#     the suspended job in place when its host is back.  sched/amcbf's
#     state lock is held by another process at the takeover: the backup's
#     sched/amcbf waits for it before it reads its state.
#  C2 The primary returns again and takes control back.
# Every job completes exactly once (sacct: one COMPLETED record per job,
# no other run but the ones Slurm recorded as requeued; jobcomp the same);
# the two controllers never act at once: each one's plugin lines lie inside
# its own spans of control (from "Running as primary controller" to its
# return to standby or its end), the spans never overlap (but where Slurm
# 24.11.5 says it let the primary start early, below), and the plugins'
# lines and cycles of the two controllers, merged, alternate only at the
# four handovers.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

t_begin=$SECONDS
start_cluster failover --backup --accounting --nodes 4 --port 18900 --node-agent \
	--sched-params amcbf_mode=amcbf,amcbf_avail_policy=wait,amcbf_avail_slot=1,amcbf_avail_drain_acts=1 \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 \
	--conf SlurmctldTimeout=6 --part-extra OverSubscribe=FORCE:2 ||
	{ fail "cluster did not start"; finish; }
L1=$CLUSTER_DIR/ctl1/slurmctld.log
L2=$CLUSTER_DIR/ctl2/slurmctld.log
ids=()

# mode_of N: controller N's own last word: control or standby
mode_of() {
	grep -E 'Running as primary controller|slurmctld running in background mode' \
		"$CLUSTER_DIR/ctl$1/slurmctld.log" | tail -1 | grep 'Running as' >/dev/null &&
		echo control || echo standby
}
ctld_alive() {
	local pid
	pid=$(head -1 "$CLUSTER_DIR/ctl$1/slurmctld.pid" 2>/dev/null) && [ -n "$pid" ] &&
		[ -d "/proc/$pid" ]
}
backup_controls() { ctld_alive 2 && [ "$(mode_of 2)" = control ] && ping_up 2; }
primary_controls() {
	ctld_alive 1 && [ "$(mode_of 1)" = control ] && ping_up 1 &&
		ctld_alive 2 && [ "$(mode_of 2)" = standby ]
}
now() { date +%Y-%m-%dT%H:%M:%S; }
# since LOG STAMP: the lines LOG wrote from STAMP (a now()) on
since() { awk -v t="$2" 'substr($1, 2, 19) >= t' "$1"; }
# has_since LOG STAMP PATTERN (grep reads it all: with -q it would stop at
# the first match, and awk, writing on, die of SIGPIPE, which pipefail
# turns into a miss)
has_since() { since "$1" "$2" | grep -E -- "$3" >/dev/null; }
hosts_of() { scontrol show hostnames "$(squeue -h -j "$1" -o %N)"; }
# sub SBATCH-ARGS...: submit; the job id in $id and in ids
sub() { id=$(submit "$@") && ids+=("$id"); }

wait_for "the primary in control, the backup in standby" primary_controls

# A: scontrol takeover mid-run, one job in the background tier
# o1 and o2 declare no need: the node agents measure them (one node each:
# a job's need is measured once every node of it reports), and the need
# history learns it when they end
sub -N1 -J hist --wrap 'sleep 30'
o1=$id
sub -N1 -J hist --wrap 'sleep 30'
o2=$id
sub -N2 --comment=dfrs:need=0.5 --wrap 'sleep 20'
f=$id
wait_for "A: jobs $o1, $o2 and $f running" state_is "$f" RUNNING
sub -N1 -t 1 --comment=dfrs:need=0.4 --wrap 'sleep 25'
b=$id
wait_for "A: job $b in the background tier" comment_is "$b" dfrs:tier=bg
nb=$(squeue -h -j "$b" -o %N)
wait_for "A: job $b weight 2 on $nb" shares_is "$nb" "$b" 2
t_a=$(now)
scontrol takeover || fail "A: scontrol takeover failed"
wait_for -t 30 "A: the backup in control after scontrol takeover" backup_controls
primary_gone() { ! ctld_alive 1; }
wait_for "A: the primary exits after the takeover (Slurm: a primary never resumes as a backup)" primary_gone
for p in "sched/amcbf: restore: restored [0-9]+ jobs' virtual times" \
	 "availability: loaded the models of 4 nodes and 0 suspended jobs" \
	 "select/dfrs: ensure_model: model rebuilt: 4 running or suspended jobs on 4 nodes"; do
	wait_for "A: the backup's log: $p" has_since "$L2" "$t_a" "$p"
done
comment_is "$b" dfrs:tier=bg || fail "A: job $b's tier changed at the takeover"
shares_is "$nb" "$b" 2 || fail "A: job $b's weight changed at the takeover"
# the foreground job ends: the backup promotes the background job in place
wait_for -t 40 "A: job $b promoted by the backup" has_since "$L2" "$t_a" \
	"amcbf: JobId=$b swapped to the fg tier on $nb \(no restart\)"

# C1: the primary returns and takes control back
t_c1=$(now)
"$cluster" restart-controller --dir "$CLUSTER_DIR" --ctl 1 || fail "C1: the primary did not start"
wait_for -t 40 "C1: the primary in control again, the backup in standby" primary_controls
has_since "$L2" "$t_c1" "Performing RPC: REQUEST_CONTROL" ||
	fail "C1: the backup was not asked for control"
wait_for "C1: the primary read sched/amcbf's saved state" has_since "$L1" "$t_c1" \
	"sched/amcbf: restore: restored [0-9]+ jobs' virtual times"
wait_jobs_done 60 "$o1" "$o2" "$f" "$b"
# the need history: the node agents measured A's jobs, which have ended
wait_for -t 30 "A's measured needs in the need history" test -s "$CLUSTER_DIR/state/dfrs-need-history"

# B: kill -9 of the primary: a job suspended, one in the background tier, a queue
# (s declares its need: undeclared, the need history learned from A's
# sleeping jobs predicts it near 0, and f2 may then be placed in the
# background beside it instead of in the foreground of the idle nodes)
sub -N2 --comment=dfrs:need=1 --wrap 'sleep 30'
s=$id
wait_for "B: job $s running" state_is "$s" RUNNING
sub -N2 --comment=dfrs:need=0.5 --wrap 'sleep 25'
f2=$id
wait_for "B: job $f2 running" state_is "$f2" RUNNING
sub -N1 -t 1 --comment=dfrs:need=0.4 --wrap 'sleep 20'
b2=$id
wait_for "B: job $b2 in the background tier" comment_is "$b2" dfrs:tier=bg
read -r _ s_off <<<"$(hosts_of "$s" | xargs)"
s_where=$(squeue -h -j "$s" -o %N)
scontrol update nodename="$s_off" state=drain reason=failover-test
wait_for "B: job $s suspended while $s_off is OFF" state_is "$s" SUSPENDED
# a queue that cannot start before the failover (3 nodes: only n1 and one
# of $f2's have a slot left while $s_off is drained)
for i in 1 2 3; do sub -N3 --wrap "sleep $i"; done
# Slurm saves its own state at most every 5 s (SAVE_MAX_WAIT): what it did
# since its last save is lost with it.  Wait for a save after this second.
seen=$(date +%s)
saved_after() { [ "$(stat -c %Y "$CLUSTER_DIR/state/job_state")" -gt "$1" ]; }
wait_for -t 15 "B: Slurm's job state saved after the suspension" saved_after "$seen"
if ! state_is "$s" SUSPENDED || ! comment_is "$b2" dfrs:tier=bg; then
	fail "B: the state changed while waiting for Slurm's save"
fi
t_b=$(now)
# sched/amcbf's state lock (amcbf-state.lock) held by someone else at the
# takeover, as a dead host's lock on NFS may be for a while: from the
# primary's death on (the kernel releases its lock then), until 2 s after
# the backup's sched/amcbf said it waits (40 s at most)
python3 - "$CLUSTER_DIR/state/amcbf-state.lock" "$L2" <<'PY' &
import fcntl, os, sys, time
start = os.path.getsize(sys.argv[2])
lock = open(sys.argv[1], "a")
fcntl.lockf(lock, fcntl.LOCK_EX)
end = time.time() + 40
while time.time() < end:
    with open(sys.argv[2], errors="replace") as log:
        log.seek(start)
        if any("waiting up to" in l and "amcbf-state.lock" in l for l in log):
            time.sleep(2)
            break
    time.sleep(0.2)
PY
holder=$!
kill -9 "$(head -1 "$CLUSTER_DIR/ctl1/slurmctld.pid")"
wait_for -t 40 "B: the backup in control after kill -9 of the primary" backup_controls
wait "$holder"
for p in "sched/amcbf: lock_waiting: waiting up to 60 s for the other controller's sched/amcbf to save its state" \
	 "sched/amcbf: take_state_lock: .*amcbf-state.lock taken after [0-9.]+ s"; do
	wait_for "B: the backup's log: $p" has_since "$L2" "$t_b" "$p"
done
for p in "ControlMachine ctl1 not responding, BackupController1 ctl2 taking over" \
	 "sched/amcbf: restore: restored [0-9]+ jobs' virtual times" \
	 "availability: loaded the models of 4 nodes and 1 suspended jobs" \
	 "CPU-need history: [1-9][0-9]* keys from dfrs-need-history" \
	 "select/dfrs: ensure_model: model rebuilt: [0-9]+ running or suspended jobs on 4 nodes"; do
	wait_for "B: the backup's log: $p" has_since "$L2" "$t_b" "$p"
done
state_is "$s" SUSPENDED || fail "B: job $s is $(squeue -h -j "$s" -o %T) after the failover, not SUSPENDED"
comment_is "$b2" dfrs:tier=bg || fail "B: job $b2's tier changed at the failover"
wait_for "B: $s_off known to the backup" registered "$s_off"
scontrol update nodename="$s_off" state=resume
wait_for "B: job $s resumed by the backup" has_since "$L2" "$t_b" "availability: resumed JobId=$s on "
[ "$(squeue -h -j "$s" -o %N)" = "$s_where" ] || fail "B: job $s resumed on $(squeue -h -j "$s" -o %N), not in place on $s_where"

# C2: the primary returns after its crash
t_c2=$(now)
"$cluster" restart-controller --dir "$CLUSTER_DIR" --ctl 1 || fail "C2: the primary did not start"
wait_for -t 40 "C2: the primary in control again, the backup in standby" primary_controls
wait_for "C2: the returning primary read the availability models" has_since "$L1" "$t_c2" \
	"availability: loaded the models of 4 nodes"
wait_jobs_done 120 "${ids[@]}"

# every job completed exactly once: jobcomp, then sacct
[ "${#ids[@]}" = 10 ] || fail "${#ids[@]} jobs submitted, want 10"
assert_completed_once "${ids[@]}"
for j in "$s" "$b" "$b2"; do
	[ "$(restarts "$j")" = 0 ] || fail "job $j restarted $(restarts "$j") times, want 0 (resumed or promoted in place)"
done
sacct_done() { [ "$(sacct -n -X -P -D -j "$1" -o State 2>/dev/null | grep -c COMPLETED)" -ge 1 ]; }
for j in "${ids[@]}"; do
	wait_for -t 20 "sacct records job $j completed" sacct_done "$j" || continue
	runs=$(sacct -n -X -P -D -j "$j" -o State | xargs)
	nruns=$(wc -w <<<"$runs")
	ncompleted=$(tr ' ' '\n' <<<"$runs" | grep -cx COMPLETED)
	other=$(tr ' ' '\n' <<<"$runs" | grep -vxE 'COMPLETED|REQUEUED|PREEMPTED' | grep -c .)
	steps=$(sacct -n -P -D -j "$j" -o JobID | grep -c '\.batch$')
	if [ "$ncompleted" != 1 ] || [ "$other" != 0 ]; then
		fail "job $j: sacct -D records runs '$runs', want one COMPLETED (and requeued runs only)"
	fi
	[ "$steps" = "$nruns" ] || fail "job $j: $steps batch steps in sacct for $nruns runs ($runs)"
done
sacct -n -X -P -D -j "$(IFS=,; echo "${ids[*]}")" -o JobID,State,Suspended,NodeList | sed 's/^/  sacct: /'

slurm_warning='backup not completely done relinquishing control'
# the two controllers never acted at once
# Slurm 24.11.5 answers a returning primary's REQUEST_CONTROL only after
# CONTROL_TIMEOUT - 1 s (its shutdown waits for that very RPC), before the
# backup has stopped: the primary reads Slurm's state and says "Running as
# primary controller" while the backup still stops and saves.  That
# overlap of the controllers' spans is Slurm's, and is let pass only where
# the backup's log has Slurm's own warning about it; the plugins' lines
# must still never interleave: the returning primary's sched/amcbf waits
# for the backup's to release its state lock (amcbf-state.lock) after its
# last save.
python3 - "$L1" "$L2" <<'PY' || fail "the controllers' logs show them acting at once (above)"
import re, sys
from datetime import datetime
stamp = re.compile(r"^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})\] (.*)")
# a plugin line that is not an act of control: loading, and sched/amcbf
# saying that it waits for the other controller's state lock
quiet = re.compile(r"select/dfrs: (init|load_params|select_delegate_load):|"
                   r"sched/amcbf: (init|lock_waiting):")
slurm_warning = "REQUEST_CONTROL reply but backup not completely done relinquishing control"
def spans(path):
    """(start, end) of each span of control, the plugin lines, and the
    times of Slurm's warning above."""
    lines = []
    for line in open(path, errors="replace"):
        m = stamp.match(line)
        if m:
            lines.append(m.groups())
    # each process starts with "log levels", "Log file re-opened", "sched:
    # slurmctld starting" (a backup taking over writes the first two only)
    cuts = [0]
    for i, (t, text) in enumerate(lines):
        if "sched: slurmctld starting" in text:
            j = max([k for k in range(max(i - 3, 0), i + 1)
                     if "slurmctld log levels" in lines[k][1]] or [i])
            if j > 0:
                cuts.append(j)
    cuts.append(len(lines))
    out, acts = [], []
    for a, b in zip(cuts, cuts[1:]):
        start = None
        for t, text in lines[a:b]:
            act = (re.search(r"(sched/amcbf|select/dfrs): ", text) and
                   not quiet.search(text))
            # control: from taking over (a backup), or from the first act
            # or "Running as primary controller" (a primary, which reads
            # the state once a backup in control let go)
            if not start and (act or "Running as primary controller" in text or
                              "taking over" in text):
                start = t
            if act:
                acts.append((t, text))
            if "running in background mode" in text and start:
                out.append((start, t)); start = None
        if start:	# the process ended (or runs: the last segment)
            out.append((start, lines[b - 1][0] if b < len(lines) else "9999"))
    warns = [t for t, text in lines if slurm_warning in text]
    return out, acts, warns
def secs(t):
    return datetime.strptime(t, "%Y-%m-%dT%H:%M:%S.%f").timestamp()
bad = 0
s1, a1, _ = spans(sys.argv[1])
s2, a2, w2 = spans(sys.argv[2])
for a in s1:
    for b in s2:
        if a[0] < b[1] and b[0] < a[1]:
            # the primary's return, answered by Slurm's early reply: the
            # warning in the backup's span, within 30 s before the
            # primary's span starts
            slurms = b[0] < a[0] and any(
                b[0] <= w <= a[0] and secs(a[0]) - secs(w) < 30 for w in w2)
            print("  overlap: ctl1 %s..%s and ctl2 %s..%s" % (a + b) +
                  (" (Slurm's: the backup answered REQUEST_CONTROL before it had stopped)"
                   if slurms else ""))
            bad += not slurms
for name, sp, acts in (("ctl1", s1, a1), ("ctl2", s2, a2)):
    for t, text in acts:
        if not any(s <= t <= e for s, e in sp):
            print("  %s acted outside its control: [%s] %s" % (name, t, text)); bad += 1
def merged(acts1, acts2):
    """The controllers' lines in time order; lines of one millisecond
    (the resolution of the logs) are put the previous controller first."""
    lines = sorted([(t, 1, x) for t, x in acts1] + [(t, 2, x) for t, x in acts2])
    out, i = [], 0
    while i < len(lines):
        j = i
        while j < len(lines) and lines[j][0] == lines[i][0]:
            j += 1
        prev = out[-1][1] if out else 1
        out += sorted(lines[i:j], key=lambda l: l[1] != prev)
        i = j
    return out
def alternation(lines):
    return [c for i, (t, c, x) in enumerate(lines) if i == 0 or lines[i - 1][1] != c]
every = merged(a1, a2)
cycles = [l for l in every if "timed_cycle: cycle:" in l[2]]
print("  spans of control: ctl1 %s; ctl2 %s; plugin lines by controller: %s; cycles: %s" %
      (s1, s2, "".join(map(str, alternation(every))), "".join(map(str, alternation(cycles)))))
for what, lines in (("plugin lines", every), ("cycles", cycles)):
    order = alternation(lines)
    if order != [1, 2, 1, 2, 1]:
        print("  the %s alternate as %s, want 12121 (four handovers)" % (what, "".join(map(str, order)))); bad += 1
        for k in range(1, len(lines)):
            if lines[k][1] != lines[k - 1][1]:
                print("    ctl%d [%s] %s\n    ctl%d [%s] %s" % (lines[k - 1][1], lines[k - 1][0], lines[k - 1][2][:150],
                                                         lines[k][1], lines[k][0], lines[k][2][:150]))
sys.exit(1 if bad else 0)
PY
if grep -qF "$slurm_warning" "$L2"; then
	echo "  Slurm's own warning in the backup's log:"
	grep -F "$slurm_warning" "$L2" | sed 's/^/    /'
fi
# a sched/amcbf that waited for the other controller's state lock
for n in 1 2; do
	grep -E 'sched/amcbf: (lock_waiting: waiting up to|take_state_lock: .*amcbf-state.lock (taken after|still locked))' \
		"$CLUSTER_DIR/ctl$n/slurmctld.log" | sed "s/^/  ctl$n: /"
done
echo "run time: $((SECONDS - t_begin)) s (Slurm ${DFRS_SLURM_VERSION:-22.05})"
stop_cluster
finish
