#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_policy_qos.sh - QOS policy before a start, with slurmdbd and
# AccountingStorageEnforce=associations,limits,qos,safe (2 nodes, CMBF):
#  revoked access: a job submitted with --qos=high, whose user loses QOS
#    high (sacctmgr ... set qos-=high) while it waits, pends with reason
#    InvalidQOS and never starts, as under Slurm's scheduler;
#  limits before preemption: QOS low has MaxJobsPerUser=1; P (qos low)
#    runs, Q (qos low) pends with reason QOSMaxJobsPerUserLimit, and R (qos
#    normal, later) runs on the idle node and is never preempted for Q
#    (CMBF would, were Q given to the engine; Slurm would then refuse Q);
#    R completes while P runs; P is cancelled and Q then completes.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# slurmctld no longer lets root use QOS high in account dfrs
qos_revoked() {
	local out
	out=$(sbatch --test-only -A dfrs --qos=high --wrap true 2>&1)
	grep -q 'Invalid qos' <<<"$out"
}

start_cluster qos --accounting --nodes 2 --port 18720 --select select/linear \
	--sched-params amcbf_mode=cmbf ||
	{ fail "cluster did not start"; finish; }

# --- revoked QOS access --------------------------------------------------
blk=$(submit -N2 --wrap 'sleep 60')
wait_for "blocker running" state_is "$blk" RUNNING
h=$(submit -N1 -A dfrs --qos=high --wrap 'sleep 1')
sacctmgr -i modify user where name=root account=dfrs set qos-=high >/dev/null ||
	fail "sacctmgr could not revoke QOS high"
wait_for "slurmctld sees QOS high revoked" qos_revoked
scancel "$blk"
wait_jobs_done 30 "$blk"
wait_for "the high job pending with reason InvalidQOS" reason_is "$h" InvalidQOS
[ "$(sacct_of "$h" State)" = PENDING ] || fail "job $h: sacct State=$(sacct_of "$h" State), want PENDING"
scancel "$h"

# --- QOS MaxJobsPerUser before a preemption --------------------------------
sacctmgr -i modify qos low set maxjobsperuser=1 >/dev/null ||
	fail "sacctmgr modify qos low failed"
# (slurmctld shows QOS low's per-user limit once a user has a job)
limit_before_preemption "QOS MaxJobsPerUser" QOSMaxJobsPerUserLimit "-A dfrs --qos=low" \
	"-A dfrs --qos=low" "-A dfrs --qos=normal" qos_shows low 'MaxJobsPU=1('
preempt_tried && fail "a job was preempted (or a preemption tried)"
finish
