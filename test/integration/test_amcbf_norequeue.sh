#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_norequeue.sh - a job submitted with --no-requeue is never
# preempted by sched/amcbf (preemption is a requeue, and the job forbids
# it), and the job that would have preempted it is not stuck.  CMBF on
# select/linear, four nodes, the scenario of test_amcbf_preempt.sh:
#  A  J1 (2 nodes) runs; J2 (4 nodes) waits; J3 (2 nodes, --no-requeue,
#     later) is backfilled.  When J1 ends CMBF would requeue J3 for J2: it
#     may not, so J2 waits for J3's end and then runs.
#  B  J1 (2 nodes) runs; J2 (3 nodes) waits; J4 (1 node) and then J3 (1 node,
#     --no-requeue) are backfilled.  When J1 ends J2 needs one node more
#     than the idle ones: CMBF takes the newest later job, which is J3, but
#     J3 may not be requeued, so J4 is preempted instead and J2 starts
#     without waiting for J3.
# Both with amcbf_reserve=0, so that J3 is backfilled as in the paper.
# The plugin must not even try (Slurm refuses to requeue such a job: a
# "could not requeue" line means the plugin chose it as a victim).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# never_preempted NAME JOBID: no sign that the plugin preempted or tried to
never_preempted() {
	local what=$1 id=$2 lines
	lines=$(grep -E "(preempted|could not requeue) JobId=${id}[ :]" "$CLUSTER_DIR/slurmctld.log")
	[ -z "$lines" ] || fail "$what: the --no-requeue job JobId=$id was chosen for preemption:"$'\n'"$lines"
	[ "$(jobcomp_state "$id" | xargs)" = COMPLETED ] ||
		fail "$what: JobId=$id has jobcomp records '$(jobcomp_state "$id" | xargs)', want one COMPLETED"
	[ "$(restarts "$id")" = 0 ] || fail "$what: JobId=$id restarted $(restarts "$id") times"
	scontrol show job "$id" | grep 'Requeue=0' >/dev/null || fail "$what: JobId=$id is not Requeue=0"
}
refused() {
	grep -E "could not start JobId=$1 " "$CLUSTER_DIR/slurmctld.log" | head -3
}

start_cluster norequeue --nodes 4 --port 19200 --select select/linear \
	--sched-params amcbf_mode=cmbf,amcbf_reserve=0 || { fail "cluster did not start"; finish; }

# A: the only job J2 could preempt is --no-requeue: J2 waits for it
j1=$(submit -N2 --wrap 'sleep 6')
wait_for "A: J1 running" state_is "$j1" RUNNING
j2=$(submit -N4 --wrap 'sleep 2')
j3=$(submit -N2 --no-requeue --wrap 'sleep 10')
wait_for "A: J3 backfilled onto the idle nodes" state_is "$j3" RUNNING
state_is "$j2" PENDING || fail "A: J2 (4 nodes) started while J1 held 2"
wait_jobs_done 90 "$j1" "$j2" "$j3"
assert_completed_once "$j1" "$j2" "$j3"
never_preempted A "$j3"
s2=$(jc_time "$j2" COMPLETED StartTime) e3=$(jc_time "$j3" COMPLETED EndTime)
if [ -z "$s2" ] || [ -z "$e3" ] || ! [ "$s2" -ge "$e3" ]; then
	fail "A: J2 did not wait for J3's end (J2 started ${s2:-never}, J3 ended ${e3:-never})"
fi
[ -z "$(refused "$j2")" ] ||
	fail "A: the plugin tried to start J2 on the --no-requeue job's nodes:"$'\n'"$(refused "$j2")"

# B: J2 takes the requeueable J4's node, not the newer --no-requeue J3's
j1=$(submit -N2 --wrap 'sleep 6')
wait_for "B: J1 running" state_is "$j1" RUNNING
j2=$(submit -N3 --wrap 'sleep 2')
# J4 runs 20 s, then 2 s after its requeue (its run again only completes)
# shellcheck disable=SC2016  # expanded by the job's shell
j4=$(submit -N1 --wrap 'if [ "${SLURM_RESTART_COUNT:-0}" -gt 0 ]; then sleep 2; else sleep 20; fi')
wait_for "B: J4 backfilled" state_is "$j4" RUNNING
j3=$(submit -N1 --no-requeue --wrap 'sleep 20')
wait_for "B: J3 backfilled" state_is "$j3" RUNNING
state_is "$j2" PENDING || fail "B: J2 (3 nodes) started while J1 held 2"
wait_jobs_done 120 "$j1" "$j2" "$j3" "$j4"
assert_completed_once "$j1" "$j2" "$j3" "$j4"
never_preempted B "$j3"
log_has "cmbf: preempted JobId=$j4 on [^ ]* (requeued, preemption 1 of at most 3)" ||
	fail "B: J4 (requeueable) was not preempted for J2"
[ "$(restarts "$j4")" -ge 1 ] || fail "B: J4 restarted $(restarts "$j4") times, want >= 1"
s2=$(jc_time "$j2" COMPLETED StartTime) e3=$(jc_time "$j3" COMPLETED EndTime)
if [ -z "$s2" ] || [ -z "$e3" ] || ! [ "$s2" -lt "$e3" ]; then
	fail "B: J2 waited for the --no-requeue J3 (J2 started ${s2:-never}, J3 ended ${e3:-never})"
fi
[ -z "$(refused "$j2")" ] ||
	fail "B: the plugin tried to start J2 on the --no-requeue job's node:"$'\n'"$(refused "$j2")"
echo "decisions:"
grep -E 'cmbf: (started|preempted)|could not (start|requeue)' "$CLUSTER_DIR/slurmctld.log" |
	sed 's/^\[[^T]*T\([^]]*\)\].*amcbf_cycle: /  \1 /'
stop_cluster
finish
