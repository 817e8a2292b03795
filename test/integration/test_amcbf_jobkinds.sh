#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_jobkinds.sh - job kinds Slurm's own schedulers handle apart,
# under sched/amcbf:
#  - a job of two partitions (-p p1,p2) whose first partition is full runs
#    in the second, as Slurm's schedulers try each partition;
#  - a heterogeneous job is refused at submission by slurmctld itself
#    (it accepts them only under sched/backfill): one clear error, never a
#    silent wait.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

dir=$build/test-clusters/$test_name-kinds
mkdir -p "$dir"

start_cluster kinds --nodes 2 --port 18770 --select select/linear \
	--conf "PartitionName=p1 Nodes=n1 MaxTime=INFINITE State=UP" \
	--conf "PartitionName=p2 Nodes=n2 MaxTime=INFINITE State=UP" ||
	{ fail "cluster did not start"; finish; }

# -p p1,p2 with p1's only node taken
busy=$(submit -p p1 -N1 --wrap 'sleep 120')
wait_for "the job filling p1 running" state_is "$busy" RUNNING
m=$(submit -p p1,p2 -N1 --wrap 'sleep 1')
wait_jobs_done 30 "$m"
part=$(scontrol show job "$m" | sed -n 's/.*Partition=\([^ ]*\).*/\1/p')
state=$(scontrol show job "$m" | sed -n 's/.*JobState=\([^ ]*\).*/\1/p')
[ "$part:$state" = p2:COMPLETED ] ||
	fail "job $m (-p p1,p2, p1 full): partition $part, state $state, want p2, COMPLETED"
scancel "$busy"

# a heterogeneous job: Slurm itself refuses it at submission when the
# scheduler is not sched/backfill
printf '#!/bin/sh\nsleep 1\n' > "$dir/het.sh"
if out=$(sbatch --parsable -o /dev/null -p p2 -N1 : -p p2 -N1 "$dir/het.sh" 2>&1); then
	fail "heterogeneous job accepted ($out), want refused at submission"
	scancel "${out%%;*}"
fi
log_has "HET_JOB from uid=0 rejected as sched/backfill is not configured" ||
	fail "no rejection line for the heterogeneous job in slurmctld's log"
finish
