#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_jobkinds.sh - job kinds Slurm's own schedulers handle apart,
# under sched/amcbf:
#  - a job of two partitions (-p p1,p2) whose first partition is full runs
#    in the second, as Slurm's schedulers try each partition;
#  - a burst-buffer job (burst_buffer/lua, a script whose stage-in does
#    nothing) is staged in and runs;
#  - a heterogeneous job, which sched/amcbf does not start, says so in its
#    pending reason (squeue's REASON column), not only in the log.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

dir=$build/test-clusters/$test_name-kinds
mkdir -p "$dir"
# every function burst_buffer/lua requires, each doing nothing (no pools)
{
	for f in "job_process(job_script)" "job_teardown(job_id, job_script, hurry)" \
		"setup(job_id, uid, gid, pool, bb_size, job_script)" \
		"data_in(job_id, job_script)" "real_size(job_id)" \
		"paths(job_id, job_script, path_file)" "pre_run(job_id, job_script)" \
		"post_run(job_id, job_script)" "data_out(job_id, job_script)" \
		"pools()"; do
		printf 'function slurm_bb_%s\n\treturn slurm.SUCCESS\nend\n' "$f"
	done
	printf 'function slurm_bb_get_status(...)\n\treturn slurm.SUCCESS, ""\nend\n'
} > "$dir/burst_buffer.lua"

start_cluster kinds --nodes 2 --port 18770 --select select/linear \
	--conf "BurstBufferType=burst_buffer/lua" \
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
# the partition it ran in comes first (as Slurm's main scheduler lists it)
[ "$part:$state" = p2,p1:COMPLETED ] ||
	fail "job $m (-p p1,p2, p1 full): partition $part, state $state, want p2,p1, COMPLETED"
scancel "$busy"

# a burst-buffer job: staged in, then run
printf '#!/bin/sh\n#BB_LUA stage_in\nsleep 1\n' > "$dir/bb.sh"
b=$(submit -p p2 -N1 "$dir/bb.sh")
wait_jobs_done 40 "$b"
state=$(scontrol show job "$b" | sed -n 's/.*JobState=\([^ ]*\).*/\1/p')
[ "$state" = COMPLETED ] || fail "burst-buffer job $b: state $state, want COMPLETED"

# a heterogeneous job: pending, and squeue says why
printf '#!/bin/sh\nsleep 1\n' > "$dir/het.sh"
h=$(sbatch --parsable -o /dev/null -p p2 -N1 : -p p2 -N1 "$dir/het.sh" | cut -d';' -f1)
het_said() { squeue -h -j "$h" -o '%T %r' | grep -q '^PENDING sched/amcbf does not start heterogeneous jobs'; }
wait_for -t 15 "heterogeneous job $h: its reason says sched/amcbf does not start it" het_said ||
	squeue -j "$h" -o '%i %T %r' >&2
log_has "part of heterogeneous job $h" ||
	fail "no log line for heterogeneous job $h"
scancel "$h"
finish
