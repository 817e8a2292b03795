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

# slurmctld's view of the association's limit (shown once a job used it)
assoc_limit_seen() {
	scontrol show assoc_mgr flags=assoc account=dfrs users=root 2>/dev/null |
		grep 'GrpTRES=cpu=2(' >/dev/null
}
other_known() { sbatch --test-only -A other -t 1 --wrap true >/dev/null 2>&1; }

# each part: limit_before_preemption (lib.sh), P with a 2-minute time limit,
# Q and R with 1 minute
start_cluster grptres --accounting --nodes 2 --port 18780 --select select/linear \
	--sched-params amcbf_mode=cmbf ||
	{ fail "cluster did not start"; finish; }

sacctmgr -i modify qos low set grptres=cpu=2 >/dev/null ||
	fail "sacctmgr modify qos low failed"
limit_before_preemption QOS QOSGrpCpuLimit "-A dfrs --qos=low -t 2" \
	"-A dfrs --qos=low -t 1" "-A dfrs --qos=normal -t 1" qos_shows low 'GrpTRES=cpu=2('
sacctmgr -i modify qos low set grptres=cpu=-1 >/dev/null

c=$(sacctmgr -n -P show cluster format=cluster | head -1)
if ! sacctmgr -i add account other cluster="$c" >/dev/null ||
   ! sacctmgr -i add user root account=other cluster="$c" >/dev/null; then
	fail "sacctmgr could not add account other"
fi
sacctmgr -i modify user where name=root account=dfrs cluster="$c" set grptres=cpu=2 >/dev/null ||
	fail "sacctmgr could not set GrpTRES on root's association"
wait_for "slurmctld knows account other" other_known
limit_before_preemption association AssocGrpCpuLimit "-A dfrs -t 2" "-A dfrs -t 1" \
	"-A other -t 1" assoc_limit_seen

preempt_tried && fail "a job was preempted (or a preemption tried)"
finish
