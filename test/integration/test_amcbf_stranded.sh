#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_stranded.sh - a job sched/amcbf suspended (availability
# policy "wait": one of its hosts drained) is never left suspended for
# ever.  It carries the word sched/amcbf:suspended in its AdminComment
# while suspended, and is resumed:
#  1  after a slurmctld restart on a corrupt dfrs-availability.json (the
#     file that lists it): found by its mark, it waits for its hosts again
#     and resumes in place when they are back;
#  2  when the plugin turns passive (SchedulerParameters without
#     defer,sched_interval=-1, scontrol reconfigure);
#  3  after a rollback to sched/backfill, by the command the admin guide
#     gives (squeue ... admin_comment ... | scontrol resume).
# Each job completes exactly once, without a restart, and loses its mark.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster stranded --nodes 2 --port 19700 --select select/linear \
	--sched-params "amcbf_mode=cmbf,amcbf_avail_policy=threshold,amcbf_avail_slot=2,amcbf_avail_migration_cost=100000" ||
	{ fail "cluster did not start"; finish; }
conf=$SLURM_CONF
marked() { squeue -h -j "$1" -O admin_comment:200 | grep -w 'sched/amcbf:suspended' >/dev/null; }
# suspend_one SECONDS: a 2-node job running SECONDS, suspended by the
# policy with its mark (n2 drained); prints its id
suspend_one() {
	local id
	id=$(submit -N2 --wrap "sleep $1")
	wait_for "JobId=$id running" state_is "$id" RUNNING >&2
	scontrol update nodename=n2 state=drain reason=stranded-test
	wait_for "JobId=$id suspended" state_is "$id" SUSPENDED >&2
	wait_for "JobId=$id marked" marked "$id" >&2
	echo "$id"
}
done_once() {
	wait_jobs_done 60 "$1"
	assert_completed_once "$1"
	[ "$(restarts "$1")" = 0 ] || fail "JobId=$1 restarted $(restarts "$1") times, want 0"
}

# 1: the state file is corrupt across a restart
j1=$(suspend_one 12)
restart_ctld_with sh -c "echo '{\"nodes\": [' >'$CLUSTER_DIR/state/dfrs-availability.json'"
wait_for "1: one error line for the corrupt file" \
	log_has "availability: .*dfrs-availability.json.*; not loaded, learning afresh"
wait_for "1: JobId=$j1 found by its mark" \
	log_has "availability: JobId=$j1 was suspended by sched/amcbf (AdminComment sched/amcbf:suspended) but not in dfrs-availability.json"
state_is "$j1" SUSPENDED || fail "1: JobId=$j1 is $(squeue -h -j "$j1" -o %T) while n2 is drained"
wait_for "1: n2 registered again" registered n2
scontrol update nodename=n2 state=resume
wait_for "1: JobId=$j1 resumed" state_is "$j1" RUNNING
log_has "availability: resumed JobId=$j1 on n\[1-2\]: its 2 hosts are ON again" ||
	fail "1: no resume line for JobId=$j1"
marked "$j1" && fail "1: JobId=$j1 still marked after its resume"
done_once "$j1"

# 2: the plugin turns passive
j2=$(suspend_one 8)
sed -i 's/^SchedulerParameters=defer,sched_interval=-1,/SchedulerParameters=/' "$conf"
scontrol reconfigure || fail "2: scontrol reconfigure failed"
wait_for "2: JobId=$j2 resumed by the passive plugin" \
	log_has "availability: resumed JobId=$j2: sched/amcbf is passive"
state_is "$j2" RUNNING || fail "2: JobId=$j2 is $(squeue -h -j "$j2" -o %T), not RUNNING"
marked "$j2" && fail "2: JobId=$j2 still marked after its resume"
scontrol update nodename=n2 state=resume
done_once "$j2"

# 3: rollback to sched/backfill, then the admin guide's command
reconfigs() { grep -c 'reconfigured, parameters' "$CLUSTER_DIR/slurmctld.log"; }
before=$(reconfigs)
sed -i 's/^SchedulerParameters=/SchedulerParameters=defer,sched_interval=-1,/' "$conf"
scontrol reconfigure || fail "3: scontrol reconfigure failed"
more_reconfigs() { [ "$(reconfigs)" -gt "$before" ]; }
wait_for "3: reconfigured, active again" more_reconfigs
j3=$(suspend_one 8)
restart_ctld_with sed -i 's|^SchedulerType=.*|SchedulerType=sched/backfill|' "$conf"
state_is "$j3" SUSPENDED || fail "3: JobId=$j3 is $(squeue -h -j "$j3" -o %T) under sched/backfill"
squeue -h -t S -O 'JobID:15 ,admin_comment:200' | awk '/sched\/amcbf:suspended/ {print $1}' |
	xargs -r -n1 scontrol resume
wait_for "3: JobId=$j3 resumed by the admin guide's command" state_is "$j3" RUNNING
scontrol update nodename=n2 state=resume
done_once "$j3"
stop_cluster
finish
