#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_policy_grptres.sh - GrpTRES before a preemption, with slurmdbd
# and AccountingStorageEnforce=associations,limits,qos,safe (2 nodes of 2
# CPUs, select/linear: a job holds its node's 2 CPUs; CMBF, which requeues
# later jobs for an earlier one):
#  QOS: QOS low has GrpTRES=cpu=2; P (qos low) runs, Q (qos low) pends with
#    reason QOSGrpCpuLimit, and R (qos normal, later) runs on the idle node
#    and is never preempted for Q (were Q given to the engine, CMBF would
#    requeue R, and Slurm would then refuse Q); R completes while P runs;
#    P is cancelled and Q then completes;
#  association: the same with GrpTRES=cpu=2 on root's association in
#    account dfrs, reason AssocGrpCpuLimit, R in account other.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# slurmctld's view of the limits (shown once a job used them)
qos_limit_seen() {
	scontrol show assoc_mgr flags=qos qos=low 2>/dev/null | grep -q 'GrpTRES=cpu=2('
}
assoc_limit_seen() {
	scontrol show assoc_mgr flags=assoc account=dfrs users=root 2>/dev/null |
		grep -q 'GrpTRES=cpu=2('
}
other_known() { sbatch --test-only -A other -t 1 --wrap true >/dev/null 2>&1; }

# over_limit NAME SEEN REASON P-ARGS R-ARGS: P runs, Q (as P) pends with
# REASON, R runs on the idle node and completes, never preempted; then P
# is cancelled and Q completes
over_limit() {
	local name=$1 seen=$2 reason=$3 pargs=$4 rargs=$5 p q r j st
	# shellcheck disable=SC2086
	p=$(submit -N1 $pargs -t 2 --wrap 'sleep 60')
	wait_for "$name: P running" state_is "$p" RUNNING
	wait_for "$name: slurmctld sees the limit" "$seen"
	# shellcheck disable=SC2086
	q=$(submit -N1 $pargs -t 1 --wrap 'sleep 1')
	wait_for "$name: Q pending with reason $reason" reason_is "$q" "$reason"
	# shellcheck disable=SC2086
	r=$(submit -N1 $rargs -t 1 --wrap 'sleep 4')
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

start_cluster grptres --accounting --nodes 2 --port 18780 --select select/linear \
	--sched-params amcbf_mode=cmbf ||
	{ fail "cluster did not start"; finish; }

sacctmgr -i modify qos low set grptres=cpu=2 >/dev/null ||
	fail "sacctmgr modify qos low failed"
over_limit QOS qos_limit_seen QOSGrpCpuLimit "-A dfrs --qos=low" "-A dfrs --qos=normal"
sacctmgr -i modify qos low set grptres=cpu=-1 >/dev/null

c=$(sacctmgr -n -P show cluster format=cluster | head -1)
sacctmgr -i add account other cluster="$c" >/dev/null &&
	sacctmgr -i add user root account=other cluster="$c" >/dev/null ||
	fail "sacctmgr could not add account other"
sacctmgr -i modify user where name=root account=dfrs cluster="$c" set grptres=cpu=2 >/dev/null ||
	fail "sacctmgr could not set GrpTRES on root's association"
wait_for "slurmctld knows account other" other_known
over_limit association assoc_limit_seen AssocGrpCpuLimit "-A dfrs" "-A other"

preempt_tried && fail "a job was preempted (or a preemption tried)"
finish
