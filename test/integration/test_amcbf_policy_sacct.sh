#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_policy_sacct.sh - what Slurm's accounting records of the runs
# sched/amcbf takes off their nodes, and the availability policy's
# exemptions, with slurmdbd (4 nodes, CMBF, amcbf_reserve=0,
# amcbf_avail_policy=wait, slots of 1 s):
#  A  a requeue by preemption: J1 runs on 2 nodes, J2 needs all 4 and
#     waits, J3 is backfilled on the other 2 and requeued for J2 when J1
#     ends (test_amcbf_preempt.sh); sacct -D records J3's first run as
#     PREEMPTED and its second as COMPLETED, with Restarts 1 in scontrol;
#  B  a suspension by the availability policy: one host of J4 (2 nodes)
#     is drained (OFF), the policy waits: J4 is suspended, resumed when
#     the host is back, and sacct records a non-zero Suspended time;
#  C  the same for J5, submitted with --no-requeue: the availability
#     policy obeys the plugin's exemptions, so J5 is left running (one log
#     line says why) and sacct records no Suspended time.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster sacct --accounting --nodes 4 --port 18760 --select select/linear \
	--sched-params amcbf_mode=cmbf,amcbf_reserve=0,amcbf_avail_policy=wait,amcbf_avail_slot=1 ||
	{ fail "cluster did not start"; finish; }
# sacct_runs JOBID FIELD: the field of each run of the job, one a line
sacct_runs() { sacct -n -X -P -D -j "$1" -o "$2" 2>/dev/null; }
node1_of() { scontrol show hostnames "$(squeue -h -j "$1" -o %N)" | head -1; }

# A: a requeue by preemption
start_j1_j2_j3 "A: " 3 1 --wrap 'sleep 8'
wait_jobs_done 40 "$j1" "$j2" "$j3"
log_has "cmbf: preempted JobId=$j3 on [^ ]* (requeued, preemption 1 " ||
	fail "A: J3 was not preempted for J2"
[ "$(restarts "$j3")" = 1 ] || fail "A: J3 restarted $(restarts "$j3") times, want 1"
runs_complete() { [ "$(sacct_runs "$j3" State | tail -1)" = COMPLETED ]; }
wait_for "A: sacct has J3's last run" runs_complete
runs=$(sacct_runs "$j3" State | xargs)
[ "$runs" = "PREEMPTED COMPLETED" ] ||
	fail "A: sacct -D records J3's runs as '$runs', want 'PREEMPTED COMPLETED'"
echo "A: sacct -D -j $j3: $(sacct -n -X -P -D -j "$j3" -o JobID,State,Start,End | xargs)"

# B: a suspension by the availability policy
j4=$(submit -N2 --wrap 'sleep 6')
wait_for "B: J4 running" state_is "$j4" RUNNING
n4=$(node1_of "$j4")
scontrol update nodename="$n4" state=drain reason=sacct-test
wait_for "B: J4 suspended while $n4 is OFF" state_is "$j4" SUSPENDED
sleep 2
scontrol update nodename="$n4" state=resume
wait_for "B: J4 resumed" state_is "$j4" RUNNING
wait_jobs_done 30 "$j4"
b_done() { [ "$(sacct_of "$j4" State)" = COMPLETED ]; }
wait_for "B: sacct has J4 completed" b_done
sus=$(sacct_of "$j4" Suspended)
case $sus in
"" | 00:00:00) fail "B: sacct records J4's Suspended time as '$sus', want more than 0" ;;
esac
echo "B: sacct -j $j4: Suspended=$sus State=$(sacct_of "$j4" State)"

# C: a --no-requeue job is exempt: left running
j5=$(submit -N2 --no-requeue --wrap 'sleep 5')
wait_for "C: J5 running" state_is "$j5" RUNNING
n5=$(node1_of "$j5")
scontrol update nodename="$n5" state=drain reason=sacct-test
wait_for "C: the availability policy says why it leaves J5 running" \
	log_has "availability: not preempting JobId=$j5: it was submitted with --no-requeue"
state_is "$j5" RUNNING || fail "C: J5 is $(squeue -h -j "$j5" -o %T), want RUNNING"
wait_jobs_done 30 "$j5"
scontrol update nodename="$n5" state=resume
c_done() { [ "$(sacct_of "$j5" State)" = COMPLETED ]; }
wait_for "C: sacct has J5 completed" c_done
[ "$(sacct_of "$j5" Suspended)" = 00:00:00 ] ||
	fail "C: sacct records J5 suspended for $(sacct_of "$j5" Suspended)"
log_has "suspended JobId=$j5 " && fail "C: the --no-requeue J5 was suspended"
assert_completed_once "$j1" "$j2" "$j3" "$j4" "$j5"
finish
