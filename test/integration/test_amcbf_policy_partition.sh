#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_policy_partition.sh - sched/amcbf re-checks a pending job's
# partition before a start, as Slurm's scheduler does (job_limits_check):
#  - a job of a DOWN partition pends with reason PartitionDown and runs once
#    the partition is UP again;
#  - Slurm's test17.55 case: with EnforcePartLimits=NO, a job asking -t 100
#    in a partition of MaxTime=1 pends with reason PartitionTimeLimit (it is
#    not started with its limit cut).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster part --accounting --nodes 2 --port 18710 --select select/linear \
	--conf "EnforcePartLimits=NO" \
	--conf "PartitionName=closed Nodes=ALL MaxTime=INFINITE State=DOWN" \
	--conf "PartitionName=short Nodes=ALL MaxTime=1 State=UP" ||
	{ fail "cluster did not start"; finish; }
d=$(submit -p closed -N1 --wrap 'sleep 1')
t=$(submit -p short -N1 -t 100 --wrap 'sleep 1')
wait_for "the DOWN partition's job pending with reason PartitionDown" \
	reason_is "$d" PartitionDown
wait_for "the -t 100 job pending with reason PartitionTimeLimit" \
	reason_is "$t" PartitionTimeLimit
# a later job of the default partition runs: the others are not started,
# not forgotten either
o=$(submit -N1 --wrap 'sleep 1')
wait_jobs_done 30 "$o"
reason_is "$d" PartitionDown || fail "job $d: $(squeue -h -j "$d" -o '%T %r'), want PENDING PartitionDown"
reason_is "$t" PartitionTimeLimit || fail "job $t: $(squeue -h -j "$t" -o '%T %r'), want PENDING PartitionTimeLimit"
scontrol update partitionname=closed state=up
wait_jobs_done 30 "$d"
[ "$(sacct_of "$d" State)" = COMPLETED ] || fail "job $d: sacct State=$(sacct_of "$d" State) after the partition came up, want COMPLETED"
reason_is "$t" PartitionTimeLimit || fail "job $t: $(squeue -h -j "$t" -o '%T %r') at the end, want PENDING PartitionTimeLimit"
finish
