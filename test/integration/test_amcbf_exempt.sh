#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_exempt.sh - what sched/amcbf must not preempt outright, on a
# live cluster, in the scenario of test_amcbf_preempt.sh (J1 runs on 2 of 4
# nodes, J2 needs all 4 and waits, a later J3 runs on the other 2; when J1
# ends CMBF would requeue J3 for J2):
#  amcbf_ckpt_signal=USR1  J3, which asked for it (--signal=B:USR1@5),
#        gets SIGUSR1 in its batch script first and is requeued only
#        amcbf_ckpt_wait seconds later; then a J3 that did not ask, whose
#        script does not trap SIGUSR1, gets no signal (it would die of it)
#        and is requeued at once, and completes after its restart;
#  amcbf_partitions=debug  J3 in partition "other" is started in submit
#        order by the unmanaged path and never preempted: J2 waits for it;
#  amcbf_min_runtime=2     J3 has run longer than that when J1 ends: a
#        requeue would throw its run away, so it is not preempted and J2
#        waits for it.
# (Heterogeneous jobs, which sched/amcbf leaves pending with one log line,
# need select/cons_tres: select/linear and select/dfrs refuse them at
# submission, "Requested operation not supported on this system".
# amcbf_exempt_qos needs QOS records, which need slurmdbd: the local
# cluster has no accounting, so test_dfrs_params.c checks the QOS match.)
# All three set amcbf_reserve=0, as the scenario needs J3 backfilled.
# Every job ends COMPLETED exactly once in jobcomp.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

log_time() {	# seconds since the epoch of the first log line matching $1
	local t
	t=$(grep -m1 -- "$1" "$CLUSTER_DIR/slurmctld.log" | sed -n 's/^\[\([^].]*\).*/\1/p')
	[ -n "$t" ] && date -d "$t" +%s
}

# --- checkpoint signal before the requeue ----------------------------------
start_cluster ckpt --nodes 4 --port 18600 --select select/linear \
	--sched-params amcbf_mode=cmbf,amcbf_reserve=0,amcbf_ckpt_signal=USR1,amcbf_ckpt_wait=3 ||
	{ fail "cluster did not start"; finish; }
mark=$CLUSTER_DIR/ckpt-marks
: >"$mark"
# J3's script: 15 s in steps of 0.5 s, 1 s in its runs after a requeue
# shellcheck disable=SC2016  # expanded by the job's shell
steps='k=30; [ "${SLURM_RESTART_COUNT:-0}" = 0 ] || k=2; for i in $(seq $k); do sleep 0.5; done'
start_j1_j2_j3 "ckpt: " 6 2 --signal=B:USR1@5 \
	--wrap "trap 'echo \$SLURM_JOB_ID >> $mark' USR1; $steps"
wait_jobs_done 120 "$j1" "$j2" "$j3"
assert_completed_once "$j1" "$j2" "$j3"
log_has "checkpoint: sent SIGUSR1 to JobId=$j3, requeue in 3 s if still preempted" ||
	fail "ckpt: no checkpoint signal logged for J3"
grep -qx "$j3" "$mark" || fail "ckpt: J3's batch script did not receive SIGUSR1"
sent=$(log_time "checkpoint: sent SIGUSR1 to JobId=$j3")
requeued=$(log_time "cmbf: preempted JobId=$j3 ")
if [ -z "$sent" ] || [ -z "$requeued" ]; then
	fail "ckpt: J3 was not signalled then preempted (sent '$sent', requeued '$requeued')"
elif [ $((requeued - sent)) -lt 3 ]; then
	fail "ckpt: J3 requeued $((requeued - sent)) s after its signal, want >= 3"
fi
[ "$(restarts "$j3")" -ge 1 ] || fail "ckpt: J3 restarted $(restarts "$j3") times, want >= 1"
# a J3 that did not ask for the signal: requeued without it, and its
# script, which does not trap SIGUSR1, completes after its restart
start_j1_j2_j3 "ckpt, not asked: " 6 2 --wrap "$steps"
wait_jobs_done 120 "$j1" "$j2" "$j3"
assert_completed_once "$j1" "$j2" "$j3"
log_has "checkpoint: sent SIGUSR1 to JobId=$j3," &&
	fail "ckpt, not asked: J3 got the checkpoint signal without asking for it"
log_has "cmbf: preempted JobId=$j3 " ||
	fail "ckpt, not asked: J3 was not requeued for J2"
[ "$(restarts "$j3")" -ge 1 ] || fail "ckpt, not asked: J3 restarted $(restarts "$j3") times, want >= 1"
stop_cluster

# --- a partition outside amcbf_partitions ----------------------------------
start_cluster parts --nodes 4 --port 18600 --select select/linear \
	--sched-params amcbf_mode=cmbf,amcbf_reserve=0,amcbf_partitions=debug \
	--conf "PartitionName=other Nodes=n[3-4] MaxTime=INFINITE State=UP" ||
	{ fail "cluster did not start"; finish; }
start_j1_j2_j3 "parts: " 4 1 -p other --wrap 'sleep 10'
log_has "started JobId=$j3 of partition other (not in amcbf_partitions)" ||
	fail "parts: J3 not started by the unmanaged path"
wait_jobs_done 90 "$j1" "$j2" "$j3"
assert_completed_once "$j1" "$j2" "$j3"
preempt_tried && fail "parts: a job of an unmanaged partition was preempted"
assert_j2_after_j3 "parts: "
stop_cluster

# --- a job that has run amcbf_min_runtime already --------------------------
# J1 runs 8 s: J3, started within its first seconds, has run more than 2 s
# when J1 ends and CMBF would requeue it for J2
start_cluster runtime --nodes 4 --port 18600 --select select/linear \
	--sched-params amcbf_mode=cmbf,amcbf_reserve=0,amcbf_min_runtime=2 ||
	{ fail "cluster did not start"; finish; }
start_j1_j2_j3 "runtime: " 8 1 --wrap 'sleep 10'
wait_jobs_done 90 "$j1" "$j2" "$j3"
assert_completed_once "$j1" "$j2" "$j3"
preempt_tried && fail "runtime: a job that had run amcbf_min_runtime was preempted"
[ "$(restarts "$j3")" = 0 ] || fail "runtime: J3 restarted $(restarts "$j3") times, want 0"
assert_j2_after_j3 "runtime: "

stop_cluster
finish
