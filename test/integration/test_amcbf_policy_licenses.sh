#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_policy_licenses.sh - sched/amcbf tests licenses before a start,
# as Slurm's scheduler does (license_job_test), and gives the engine no job
# that lacks its licenses, so none is preempted for.  On 2 nodes with
# Licenses=lic:1 and amcbf_mode=cmbf (an earlier waiting job takes the nodes
# of later ones):
#  A (-L lic:1) runs; B (-L lic:1), submitted next, pends with reason
#  Licenses while a node is idle; C (no license), later, runs on that node
#  and is never preempted for B (CMBF would, were B given to the engine);
#  scontrol show lic shows Used=1; C completes unpreempted while A runs;
#  A is then cancelled, and B starts only after A ended (sacct);
#  D and E (-L lic:1 each), submitted held and released at once, so that
#  one cycle finds both startable on idle nodes: one runs, the other
#  starts only after it ended (sacct), and neither is requeued.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster lic --accounting --nodes 2 --port 18700 --select select/linear \
	--sched-params amcbf_mode=cmbf --conf "Licenses=lic:1" ||
	{ fail "cluster did not start"; finish; }
a=$(submit -N1 -L lic:1 --wrap 'sleep 60')
wait_for "A running" state_is "$a" RUNNING
b=$(submit -N1 -L lic:1 --wrap 'sleep 1')
wait_for "B pending with reason Licenses" reason_is "$b" Licenses
c=$(submit -N1 --wrap 'sleep 4')
wait_for "C running on the idle node" state_is "$c" RUNNING
state_is "$b" PENDING || fail "B is $(squeue -h -j "$b" -o %T) beside A, want PENDING"
used=$(scontrol show lic lic | sed -n 's/.*Used=\([0-9]*\).*/\1/p')
[ "$used" = 1 ] || fail "scontrol show lic: Used=$used, want 1"
wait_jobs_done 30 "$c"
state_is "$a" RUNNING || fail "A is $(squeue -h -j "$a" -o %T) after C, want RUNNING"
reason_is "$b" Licenses || fail "job $b: $(squeue -h -j "$b" -o '%T %r') after C, want PENDING Licenses"
scancel "$a"
wait_jobs_done 30 "$a" "$b"
st=$(sacct_of "$a" State)
[ "${st%% *}" = CANCELLED ] || fail "A: sacct State=$st, want CANCELLED"
for j in "$b" "$c"; do
	st=$(sacct_of "$j" State)
	[ "$st" = COMPLETED ] || fail "job $j: sacct State=$st, want COMPLETED"
done
a_end=$(date -d "$(sacct_of "$a" End)" +%s)
b_start=$(date -d "$(sacct_of "$b" Start)" +%s)
[ "$b_start" -ge "$a_end" ] ||
	fail "B started at $(sacct_of "$b" Start), before A ended ($(sacct_of "$a" End))"
[ "$(restarts "$c")" = 0 ] || fail "C was requeued $(restarts "$c") times for B"
# two jobs wanting the one license, released at once
d=$(submit -H -N1 -L lic:1 --wrap 'sleep 3')
e=$(submit -H -N1 -L lic:1 --wrap 'sleep 3')
scontrol release "$d,$e" >/dev/null 2>&1
wait_jobs_done 40 "$d" "$e"
for j in "$d" "$e"; do
	st=$(sacct_of "$j" State)
	[ "$st" = COMPLETED ] || fail "job $j: sacct State=$st, want COMPLETED"
	[ "$(restarts "$j")" = 0 ] || fail "job $j was requeued $(restarts "$j") times"
done
ds=$(date -d "$(sacct_of "$d" Start)" +%s) de=$(date -d "$(sacct_of "$d" End)" +%s)
es=$(date -d "$(sacct_of "$e" Start)" +%s) ee=$(date -d "$(sacct_of "$e" End)" +%s)
[ "$es" -ge "$de" ] || [ "$ds" -ge "$ee" ] ||
	fail "D ($(sacct_of "$d" Start) to $(sacct_of "$d" End)) and E ($(sacct_of "$e" Start) to $(sacct_of "$e" End)) held lic:1 at once"
preempt_tried && fail "a job was preempted (or a preemption tried)"
finish
