#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_preempt_modes.sh - whom sched/amcbf preempts, by mode and
# parameter, in test_amcbf_preempt.sh's scenario (J1 on 2 of 4 nodes, J2
# needs 4 and waits, a later J3 is backfilled; when J1 ends, J2 needs J3's
# nodes), on Slurm's select/linear.  The decisions are the engine's and do
# not depend on the Slurm release (contribs/check runs this on 22.05; the
# requeue itself is test_amcbf_preempt.sh's, on every release):
#  amcbf_max_preempt=0 makes every running job exempt: nothing is preempted.
#  AMBF  only the head of the queue may preempt: J2 requeues J3.
#  amcbf_reserve=1, amcbf_requeue_victims=0 (AMBF): the head holds EASY's
#        reservation by the time limits; a later job that would outlast it
#        waits, one that ends by it is backfilled, and nothing is requeued.
#  amcbf_priority=stretch orders jobs by flow time / virtual time^2: a new
#        job comes first and may preempt one that has run a while.
# Every job ends COMPLETED exactly once in jobcomp.
set -uo pipefail
. "$(dirname "$0")/lib.sh"


start_cluster nopreempt --nodes 4 --port 18200 --select select/linear \
	--sched-params amcbf_mode=cmbf,amcbf_max_preempt=0,amcbf_reserve=0 ||
	{ fail "cluster did not start"; finish; }
preempt_scenario nopreempt
preempt_tried && fail "amcbf_max_preempt=0: a job was preempted"
stop_cluster

start_cluster ambf --nodes 4 --port 18200 --select select/linear \
	--sched-params amcbf_mode=ambf,amcbf_reserve=0 || { fail "cluster did not start"; finish; }
preempt_scenario ambf
log_has "ambf: preempted JobId=$j3 on n\[3-4\]" || fail "ambf: the head job did not preempt J3"
stop_cluster

start_cluster reserve --nodes 4 --port 18200 --select select/linear \
	--sched-params amcbf_mode=ambf,amcbf_reserve=1,amcbf_requeue_victims=0 ||
	{ fail "cluster did not start"; finish; }
# J1 (2 nodes, limit 2 min) runs; J2 (4 nodes) is the head: its shadow time
# is J1's end by its limit; J3 (2 nodes, limit 5 min) would outlast it and
# waits; J4 (2 nodes, limit 1 min) ends before it and is backfilled
j1=$(submit -N2 -t 2 --wrap 'sleep 6')
wait_for "reserve: J1 running" state_is "$j1" RUNNING
j2=$(submit -N4 --wrap 'sleep 2')
j3=$(submit -N2 -t 5 --wrap 'sleep 2')
j4=$(submit -N2 -t 1 --wrap 'sleep 4')
wait_for "reserve: J4 (ends by the shadow time) backfilled" state_is "$j4" RUNNING
state_is "$j3" PENDING || fail "reserve: J3 (outlasts the shadow time) started before J2"
wait_jobs_done 90 "$j1" "$j2" "$j3" "$j4"
assert_completed_once "$j1" "$j2" "$j3" "$j4"
preempt_tried && fail "reserve: amcbf_requeue_victims=0 on select/linear: a job was preempted"
s2=$(jc_time "$j2" COMPLETED StartTime) s3=$(jc_time "$j3" COMPLETED StartTime)
if [ -z "$s2" ] || [ -z "$s3" ] || ! [ "$s3" -ge "$s2" ]; then
	fail "reserve: J3 started at $s3, before the head J2 at $s2"
fi
stop_cluster

start_cluster stretch --nodes 2 --port 18200 --select select/linear \
	--sched-params amcbf_mode=cmbf,amcbf_priority=stretch ||
	{ fail "cluster did not start"; finish; }
prio() { squeue -h -j "$1" -o %Q; }
old=$(submit -N2 --wrap 'sleep 8')
wait_for "stretch: first job running" state_is "$old" RUNNING
sleep 2
new=$(submit -N1 --wrap 'sleep 2')
wait_for "stretch: the new job preempts the one that has run" \
	log_has "cmbf: preempted JobId=$old on n\[1-2\]"
wait_for "stretch: the new job runs" state_is "$new" RUNNING
# a job that ran has a finite priority, below a new job's 2^30+1 (Slurm
# itself sets 1 for a moment when the requeue completes; the next cycle
# writes the stretch priority back)
finite_prio() { local p; p=$(prio "$1"); [ -n "$p" ] && [ "$p" -gt 1 ] && [ "$p" -lt 1073741825 ]; }
wait_for "stretch: preempted job's priority finite (1 < p < 2^30+1)" \
	finite_prio "$old"
wait_jobs_done 90 "$old" "$new"
assert_completed_once "$old" "$new"
stop_cluster
finish
