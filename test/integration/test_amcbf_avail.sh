#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_avail.sh - sched/amcbf's availability slot on a local cluster
# (He et al. 2012; SSAC, Xie and Qin 2006).  Sixteen nodes, CMBF on
# select/linear, slots of 2 s.
#  1  A driver makes every node go ON/OFF by a known Markov chain (p01 0.3,
#     p11 0.8), one step a slot for 15 slots, by draining (OFF) and
#     resuming (ON) it: 240 transitions, the pooled estimate's sample (16
#     nodes for 15 slots give as many as 8 for 30, in half the time).  The
#     pooled estimate the plugin exports must come near p01 and p11, and
#     very near the frequencies of the sequence the plugin observed: the
#     driver reads the plugin's last observation of every node (dfrs status
#     --availability-json) before each step.  On a busy machine a step
#     can last more than one slot (the driver is late) and be observed
#     twice: the played sequence then differs from what the plugin saw,
#     the observed one does not (the plugin also sees a few all-ON slots
#     before and after).
#  2  slurmctld restarts: the models are read back from its state file.
#  3  A job asking for availability 0.99 (--comment=dfrs:avail=0.99) starts
#     on the node with the highest estimated availability.
#  4  gamma tiny (amcbf_avail_migration_cost=0.01, scontrol reconfigure): a
#     2-node job one of whose hosts goes OFF gets the checkpoint signal
#     (amcbf_ckpt_signal=USR1; it asked for it, --signal=B:USR1@5) once, is
#     requeued 2 s later and finishes on ON nodes (its run after the
#     requeue finds its checkpoint and has 1 s of work left).
#  5  gamma huge: the same situation suspends the job; slurmctld restarts
#     while it waits; when its host is back it is resumed in place and
#     finishes without a restart.
#  6  A job waiting suspended is resumed when the policy is set to observe
#     (scontrol reconfigure), even though its host is still OFF.
# Every job completes exactly once.  The jobs of 5 and 6 run until the test
# lets them end (a file go-JOBID it writes once it has checked them
# running), not for a fixed time: they last as long as the checks need.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

nodes=16 slot=2 steps=15 p01=0.3 p11=0.8
p01m=300 p11m=800	# the same, per mille, for $RANDOM
dfrs=$build/dfrs
start_cluster avail --nodes $nodes --port 19400 --select select/linear \
	--sched-params "amcbf_mode=cmbf,amcbf_interval=5,amcbf_ckpt_signal=USR1,amcbf_ckpt_wait=2,amcbf_avail_policy=observe,amcbf_avail_slot=$slot,amcbf_avail_drain_acts=1,amcbf_avail_wait_factor=0" ||
	{ fail "cluster did not start"; finish; }

# avail KEY...: a value from the exported status (python path, e.g. pooled p01)
avail() {
	"$dfrs" status --availability-json | python3 -c '
import json, sys
v = json.load(sys.stdin)
for k in sys.argv[1:]:
    v = v[int(k)] if isinstance(v, list) else v[k]
print(json.dumps(v) if isinstance(v, (list, dict)) else v)' "$@"
}
set_params() {	# rewrite our keys in SchedulerParameters, then reconfigure
	sed -i "s/amcbf_avail_policy=[a-z]*/amcbf_avail_policy=$1/;
		s/,amcbf_avail_migration_cost=[0-9.]*//;
		s/amcbf_avail_policy=$1/amcbf_avail_policy=$1,amcbf_avail_migration_cost=$2/" \
		"$CLUSTER_DIR/slurm.conf"
	scontrol reconfigure || fail "scontrol reconfigure failed"
	wait_for "reconfigured to $1, cost $2" log_has "amcbf_avail_policy=$1 .*amcbf_avail_migration_cost=$2 "
}
node_of() { squeue -h -j "$1" -o %N; }
# the nodes a job ran on, also once it has ended (squeue forgets them then)
ran_on() { scontrol show job -o "$1" | tr ' ' '\n' | sed -n 's/^NodeList=//p'; }
# has_run JOBID: the job started (it may be over already: it sleeps 1 s)
has_run() {
	case $(scontrol show job -o "$1" | tr ' ' '\n' | sed -n 's/^JobState=//p') in
	RUNNING | COMPLETING | COMPLETED) return 0 ;;
	esac
	return 1
}
hosts_of() { scontrol show hostnames "$(node_of "$1")"; }
# a batch script that runs until the test writes go-JOBID (let_end JOBID)
gated="until [ -e '$CLUSTER_DIR'/go-\$SLURM_JOB_ID ]; do sleep 0.2; done"
let_end() { : >"$CLUSTER_DIR/go-$1"; }
rm -f "$CLUSTER_DIR"/go-* "$CLUSTER_DIR"/ckpt-*	# an earlier run's

# 1: the driver.  Steps are played in the middle of a slot, the plugin
# observes at slot starts: each step is seen exactly once.
RANDOM=2012
declare -A on
for ((i = 1; i <= nodes; i++)); do on[n$i]=1; done
played=$CLUSTER_DIR/driver.txt observed=$CLUSTER_DIR/observed.txt
: >"$played"
: >"$observed"
# observe: append the plugin's latest observation, "SLOT s1 .. s16" (1 ON,
# 0 OFF or DOWN, - not yet observed), if it is a new slot
observe() {
	"$dfrs" status --availability-json 2>/dev/null | python3 -c '
import json, sys
v = json.load(sys.stdin)
by = {n["name"]: n.get("state") for n in v["nodes"]}
row = [str(v["slots_observed"])]
for i in range(1, int(sys.argv[2]) + 1):
    s = by.get("n%d" % i)
    row.append("-" if s is None else "1" if s == "ON" else "0")
line = " ".join(row)
last = open(sys.argv[1]).read().splitlines()
if not last or last[-1].split()[0] != row[0]:
    open(sys.argv[1], "a").write(line + "\n")' "$observed" "$nodes"
}
sleep "$(python3 -c "import time; s=$slot; print(s - time.time() % s + s / 2)")"
for ((t = 0; t < steps; t++)); do
	observe
	down=() up=()
	for ((i = 1; i <= nodes; i++)); do
		r=$((RANDOM % 1000))
		if [ "${on[n$i]}" = 1 ]; then
			[ $r -lt $p11m ] || { on[n$i]=0; down+=("n$i"); }
		else
			[ $r -ge $p01m ] || { on[n$i]=1; up+=("n$i"); }
		fi
		printf '%s ' "${on[n$i]}" >>"$played"
	done
	echo >>"$played"
	[ ${#down[@]} = 0 ] || scontrol update nodename="$(IFS=,; echo "${down[*]}")" \
		state=drain reason=avail-test
	[ ${#up[@]} = 0 ] || scontrol update nodename="$(IFS=,; echo "${up[*]}")" state=resume
	sleep "$(python3 -c "import time; s=$slot; print(s - time.time() % s + s / 2)")"
done
# the last step (every node ON), observed before it as the others: the
# plugin's estimate counts the transitions into it
observe
scontrol update nodename=n[1-$nodes] state=resume 2>/dev/null
for ((i = 1; i <= nodes; i++)); do printf '1 ' >>"$played"; done	# that step too
echo >>"$played"
sleep "$(python3 -c "import time; s=$slot; print(s - time.time() % s + s / 2)")"
observe
sleep "$slot"
observe
# the frequencies of what was played (one row a step), and of what the
# plugin observed (one row a slot; a pair of rows counts only when their
# slots follow each other and both observed the node)
freq() {
	python3 - "$1" "$2" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
if sys.argv[2] == "played":
    rows = [[str(i)] + r for i, r in enumerate(rows)]
c = [[0, 0], [0, 0]]
for a, b in zip(rows, rows[1:]):
    if int(b[0]) != int(a[0]) + 1:
        continue
    for x, y in zip(a[1:], b[1:]):
        if x != "-" and y != "-":
            c[int(x)][int(y)] += 1
print("%.4f %.4f %d" % (c[0][1] / max(1, sum(c[0])), c[1][1] / max(1, sum(c[1])),
                        sum(map(sum, c))))
PY
}
read -r e01 e11 _ <<<"$(freq "$played" played)"
read -r o01 o11 opairs <<<"$(freq "$observed" observed)"
g01=$(avail pooled p01) g11=$(avail pooled p11)
echo "driver p01=$p01 p11=$p11; played p01=$e01 p11=$e11; observed p01=$o01 p11=$o11 ($opairs transitions); estimated p01=$g01 p11=$g11"
[ "$opairs" -ge $((nodes * steps / 2)) ] ||
	fail "1: the driver saw only $opairs of the plugin's observed transitions, want >= $((nodes * steps / 2))"
python3 -c "import sys; sys.exit(not (abs($g01 - $p01) <= 0.12 and abs($g11 - $p11) <= 0.12))" ||
	fail "1: the estimate (p01=$g01, p11=$g11) is not near the driver's chain (p01=$p01, p11=$p11)"
python3 -c "import sys; sys.exit(not (abs($g01 - $o01) <= 0.06 and abs($g11 - $o11) <= 0.06))" ||
	fail "1: the estimate (p01=$g01, p11=$g11) differs from the observed sequence's (p01=$o01, p11=$o11)"
"$dfrs" status | sed -n '/^availability/,/^$/p'

# 2: the models survive a controller restart
slots=$(avail nodes 0 slots)
"$cluster" restart-controller --dir "$CLUSTER_DIR" || fail "2: slurmctld did not restart"
wait_for "2: models loaded" log_has "availability: loaded the models of $nodes nodes"
# every slurmd registered again (until then only the registered nodes are
# usable: a job started at once goes there, whatever their availability)
all_registered() {
	local states
	states=$(sinfo -h -N -o %T) && [ -n "$states" ] &&
		! grep -qE 'unknown|[*]' <<<"$states"
}
wait_for -t 60 "2: every node registered again" all_registered
wait_for "2: a slot observed after the restart" \
	python3 -c "import sys; sys.exit(not float('$(avail nodes 0 slots 2>/dev/null || echo 0)') > $slots)"

# 3: SSAC placement: the most available node (ties: the lowest index); the
# estimates move every slot, so the best before or after the start will do
best() {
	avail nodes | python3 -c '
import json, sys
n = json.load(sys.stdin)
print(max(n, key=lambda x: (x["availability"] if x["availability"] is not None else 0, -int(x["name"][1:])))["name"])'
}
before=$(best)
j3=$(submit -N1 --comment=dfrs:avail=0.99 --wrap 'sleep 1')
wait_for "3: the job asking for availability started" has_run "$j3"
after=$(best)
n3=$(ran_on "$j3")
[ "$n3" = "$before" ] || [ "$n3" = "$after" ] ||
	fail "3: a job asking for availability 0.99 started on '$n3', not on the most available node ($before, then $after)"

# 4: tiny gamma: migrate
set_params threshold 0.01
# the batch script notes the checkpoint signal and goes on until requeued;
# its run after the requeue restarts from that checkpoint (1 s left)
ckpt=$CLUSTER_DIR/ckpt-\$SLURM_JOB_ID
j4=$(submit -N2 --signal=B:USR1@5 --wrap "if [ -e $ckpt ]; then sleep 1; else trap 'touch $ckpt' USR1; sleep 12 & while ! wait; do :; done; fi")
wait_for "4: the 2-node job running" state_is "$j4" RUNNING
read -r a4 _ <<<"$(hosts_of "$j4" | xargs)"
scontrol update nodename="$a4" state=drain reason=avail-test
wait_for "4: the job requeued" log_has "availability: migrating JobId=$j4 "
log_has "checkpoint: sent SIGUSR1 to JobId=$j4, requeue in 2 s" ||
	fail "4: no checkpoint signal before JobId=$j4's migration"
[ -e "$CLUSTER_DIR/ckpt-$j4" ] || fail "4: JobId=$j4's batch script did not get SIGUSR1"
[ "$(grep -c "checkpoint: sent SIGUSR1 to JobId=$j4," "$CLUSTER_DIR/slurmctld.log")" = 1 ] ||
	fail "4: JobId=$j4 was signalled more than once for one migration"
log_has "availability: JobId=$j4 n=2 s'=1 spare=[0-9]* p01=[0-9.]* p11=[0-9.]* gamma=0.005 beta=0.999 policy=threshold T_0: migrate" ||
	fail "4: no decision line with its inputs for JobId=$j4"
wait_jobs_done 60 "$j3" "$j4"
scontrol update nodename="$a4" state=resume
assert_completed_once "$j3" "$j4"
[ "$(restarts "$j4")" = 1 ] || fail "4: JobId=$j4 restarted $(restarts "$j4") times, want 1"
nl=$(grep -E "^JobId=$j4 .*JobState=COMPLETED" "$CLUSTER_DIR/jobcomp.txt" |
	sed -n 's/.* NodeList=\([^ ]*\).*/\1/p')
scontrol show hostnames "$nl" | grep -x "$a4" >/dev/null && fail "4: JobId=$j4 finished on $nl, with the OFF node $a4"

# 5: huge gamma: wait (suspend), resume in place
set_params threshold 100000
j5=$(submit -N2 --wrap "$gated")
wait_for "5: the 2-node job running" state_is "$j5" RUNNING
where=$(node_of "$j5")
read -r _ b5 <<<"$(hosts_of "$j5" | xargs)"
scontrol update nodename="$b5" state=drain reason=avail-test
wait_for "5: the job suspended" state_is "$j5" SUSPENDED
log_has "availability: JobId=$j5 n=2 s'=1 spare=[0-9]* .* gamma=50000 beta=0.999 policy=threshold T_2: wait" ||
	fail "5: no wait decision line for JobId=$j5"
sleep $((2 * slot))
state_is "$j5" SUSPENDED || fail "5: JobId=$j5 did not stay suspended while its host was OFF"
[ "$(avail suspended 0)" = "$j5" ] || fail "5: dfrs status does not list JobId=$j5 as waiting"
# a restart while it waits: the new slurmctld still knows to resume it
"$cluster" restart-controller --dir "$CLUSTER_DIR" || fail "5: slurmctld did not restart"
wait_for "5: the waiting job read back" log_has "availability: loaded the models of $nodes nodes and 1 suspended jobs"
state_is "$j5" SUSPENDED || fail "5: JobId=$j5 is $(squeue -h -j "$j5" -o %T) after the restart, not SUSPENDED"
wait_for "5: $b5 registered again" registered "$b5"
scontrol update nodename="$b5" state=resume
wait_for "5: the job resumed" state_is "$j5" RUNNING
[ "$(node_of "$j5")" = "$where" ] || fail "5: JobId=$j5 resumed on $(node_of "$j5"), not in place on $where"
let_end "$j5"
wait_jobs_done 60 "$j5"
assert_completed_once "$j5"
[ "$(restarts "$j5")" = 0 ] || fail "5: JobId=$j5 restarted $(restarts "$j5") times, want 0"
log_has "availability: resumed JobId=$j5 " || fail "5: no resume line for JobId=$j5"

# 6: waiting jobs are not forgotten when the policy stops acting
j6=$(submit -N2 --wrap "$gated")
wait_for "6: the 2-node job running" state_is "$j6" RUNNING
read -r a6 _ <<<"$(hosts_of "$j6" | xargs)"
scontrol update nodename="$a6" state=drain reason=avail-test
wait_for "6: the job suspended" state_is "$j6" SUSPENDED
set_params observe 100000
wait_for "6: resumed on reconfiguration" log_has "availability: resumed JobId=$j6: amcbf_avail_policy is now observe"
state_is "$j6" RUNNING || fail "6: JobId=$j6 is $(squeue -h -j "$j6" -o %T), not RUNNING, after the policy stopped acting"
scontrol update nodename="$a6" state=resume
let_end "$j6"
wait_jobs_done 60 "$j6"
assert_completed_once "$j6"
"$dfrs" status | sed -n '/^recent decisions/,/^$/p'
echo "decisions:"
grep -E 'availability: ' "$CLUSTER_DIR/slurmctld.log" | sed 's/^\[[^T]*T\([^]]*\)\][^:]*: /  \1 /'
stop_cluster
finish
