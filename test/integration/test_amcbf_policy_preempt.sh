#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_policy_preempt.sh - the site's preemption and priority
# settings under sched/amcbf, with slurmdbd (4 nodes, CMBF,
# amcbf_reserve=0):
#  PreemptExemptTime on a QOS: J1 runs on 2 nodes, J2 needs all 4 and
#    waits, J3 (QOS low, PreemptExemptTime=10:00) runs on the other 2; when
#    J1 ends CMBF would requeue J3 for J2 (test_amcbf_preempt.sh): J3 has
#    run less than its QOS's exempt time, so J2 waits for it instead;
#  accrue time: while J2 waits, scontrol shows its AccrueTime set (the main
#    scheduler sets a pending job's accrue time, from which
#    priority/multifactor's age factor grows; sched/amcbf must set it too).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster pre --accounting --nodes 4 --port 18740 --select select/linear \
	--sched-params amcbf_mode=cmbf,amcbf_reserve=0 ||
	{ fail "cluster did not start"; finish; }
# one update with a field scontrol shows (Priority) tells when slurmctld has
# the exempt time, which it does not show
sacctmgr -i modify qos low set preemptexempttime=00:10:00 priority=5 >/dev/null ||
	fail "sacctmgr could not set QOS low's PreemptExemptTime"
accrue_set() {
	local t
	t=$(scontrol show job "$1" | sed -n 's/.*AccrueTime=\([^ ]*\).*/\1/p')
	[ -n "$t" ] && [ "$t" != Unknown ]
}

wait_for "slurmctld sees QOS low's PreemptExemptTime" qos_shows low 'Priority=5'
start_j1_j2_j3 "" 5 1 -A dfrs --qos=low --wrap 'sleep 12'
wait_for "J2's AccrueTime set while it waits" accrue_set "$j2"
wait_jobs_done 90 "$j1" "$j2" "$j3"
assert_completed_once "$j1" "$j2" "$j3"
preempt_tried && fail "a job inside its QOS's PreemptExemptTime was preempted"
[ "$(restarts "$j3")" = 0 ] || fail "J3 restarted $(restarts "$j3") times, want 0"
assert_j2_after_j3 ""
for j in "$j1" "$j2" "$j3"; do
	st=$(sacct_of "$j" State)
	[ "$st" = COMPLETED ] || fail "job $j: sacct State=$st, want COMPLETED"
done
finish
