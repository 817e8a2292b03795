#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_passive.sh - a passive sched/amcbf costs slurmctld nothing.
# The plugin stays passive (starts and preempts nothing, one error line)
# with amcbf_mode=dfrs without select/dfrs, and with SchedulerParameters
# lacking defer,sched_interval=-1 (here after a reconfigure); and a tiered
# mode (amcbf) on shared nodes whose SelectTypeParameters do not count
# memory stays passive with one error line naming the fix (a job submitted
# then stays pending: nothing starts it).  In both its
# agent thread must sleep between its one-second checks, not spin: the
# controller, otherwise idle, uses under 1 s of CPU in 15 s (about 0.03 s
# measured; a spinning agent used 3.6 s on a loaded 2-core machine, up to
# 15 s on an idle one).  Slurm's own scheduler still
# runs the job submitted while passive.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# cpu_small WHAT: slurmctld's CPU time over 15 s is below 1 s
cpu_small() {
	local used
	used=$(ctld_cpu_over 15) || { fail "$1: cannot read slurmctld's CPU time"; return; }
	echo "slurmctld CPU time over 15 s, $1: $used s"
	awk -v u="$used" 'BEGIN { exit !(u < 1) }' ||
		fail "$1: slurmctld used $used s of CPU in 15 s (the agent spins)"
}

start_cluster linear --nodes 2 --port 19600 --select select/linear \
	--sched-params amcbf_mode=dfrs || { fail "cluster did not start"; finish; }
wait_for "dfrs mode without select/dfrs stays passive" \
	log_has "amcbf_mode=dfrs needs SelectType=select/dfrs .*: staying passive"
cpu_small "amcbf_mode=dfrs without select/dfrs"

sed -i 's/^SchedulerParameters=.*/SchedulerParameters=amcbf_mode=cmbf/' "$SLURM_CONF"
scontrol reconfigure || fail "scontrol reconfigure failed"
wait_for "no defer,sched_interval=-1: passive" \
	log_has "SchedulerParameters lack defer,sched_interval=-1: .*stays passive"
cpu_small "SchedulerParameters without defer,sched_interval=-1"
id=$(submit -N1 --wrap 'sleep 1')
wait_jobs_done 60 "$id"
assert_completed_once "$id"
log_has "cmbf: started JobId=$id \|started JobId=$id of partition" && fail "the passive plugin started a job"
stop_cluster

start_cluster nomem --nodes 2 --port 19600 --part-extra OverSubscribe=FORCE:2 \
	--sched-params amcbf_mode=amcbf || { fail "cluster did not start"; finish; }
wait_for "amcbf mode on shared nodes without memory: passive" \
	log_has "amcbf_mode=amcbf puts a background job on a node beside a foreground one, but SelectTypeParameters does not count memory, so their memory may overlap: set SelectTypeParameters=CR_Memory .*; staying passive"
id=$(submit -N1 --wrap 'sleep 1')
sleep 5
state_is "$id" PENDING || fail "JobId=$id is $(squeue -h -j "$id" -o %T) under a passive plugin"
scancel "$id"
stop_cluster
finish
