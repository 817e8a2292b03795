#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_burstbuffer.sh - a job with a burst buffer under sched/amcbf
# (BurstBufferType=burst_buffer/lua, a script whose stage-in takes 4 s;
# Slurm's lua plugin refuses burst buffers to root, so the job is user
# daemon's): the job pends with reason BurstBufferStageIn while nodes are
# idle, is not started before its stage-in is done (sacct: it starts at
# least 4 s after it was submitted), and then runs and completes once;
# nothing is preempted for it.  A job without a burst buffer, submitted
# after it, runs meanwhile.  The same under sched/backfill
# (DFRS_POLICY_SCHED=sched/backfill): the stage-in is begun by sched/amcbf
# (bb_g_job_test_stage_in, as Slurm's main scheduler does) and the plugin
# wakes every second until it is done.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

sched=${DFRS_POLICY_SCHED:-sched/amcbf}
params=(--sched-params bf_interval=1)
[ "$sched" != sched/amcbf ] ||
	params=(--sched-params "amcbf_mode=cmbf,amcbf_interval=300")
# burst_buffer/lua reads burst_buffer.lua beside slurm.conf
dir=$build/test-clusters/$test_name-bb
mkdir -p "$dir"
cat >"$dir/burst_buffer.lua" <<'EOF'
-- test_amcbf_burstbuffer.sh: one pool; the stage-in takes 4 s, every
-- other call succeeds at once
function slurm_bb_job_process(job_script)
	return slurm.SUCCESS, ""
end
function slurm_bb_pools()
	return slurm.SUCCESS,
	       '{"pools":[{"id":"p","quantity":100,"granularity":1}]}'
end
function slurm_bb_job_teardown(job_id, job_script, hurry)
	return slurm.SUCCESS, ""
end
function slurm_bb_setup(job_id, uid, gid, pool, bb_size, job_script)
	return slurm.SUCCESS, ""
end
function slurm_bb_data_in(job_id, job_script)
	slurm.log_info("test_amcbf_burstbuffer: stage-in of job %s", job_id)
	os.execute("sleep 4")
	return slurm.SUCCESS, ""
end
function slurm_bb_real_size(job_id)
	return slurm.SUCCESS, ""
end
function slurm_bb_paths(job_id, job_script, path_file)
	return slurm.SUCCESS, ""
end
function slurm_bb_pre_run(job_id, job_script)
	return slurm.SUCCESS, ""
end
function slurm_bb_post_run(job_id, job_script)
	return slurm.SUCCESS, ""
end
function slurm_bb_data_out(job_id, job_script)
	return slurm.SUCCESS, ""
end
function slurm_bb_get_status(...)
	return slurm.SUCCESS, ""
end
EOF
start_cluster bb --accounting --nodes 2 --port 18820 --select select/linear \
	--sched "$sched" "${params[@]}" \
	--conf BurstBufferType=burst_buffer/lua ||
	{ fail "cluster did not start"; finish; }

script=$(mktemp /tmp/dfrs-bb.XXXXXX)
trap 'rm -f "$script"; stop_cluster' EXIT
printf '#!/bin/bash\n#BB_LUA pool=p capacity=1\nsleep 2\n' >"$script"
chmod 644 "$script"
as_daemon() { (cd /tmp && runuser -u daemon -- "$@"); }
b=$(as_daemon sbatch --parsable -o /dev/null -N1 "$script")
[ -n "$b" ] || { fail "user daemon could not submit a burst-buffer job"; finish; }
wait_for "the burst-buffer job pending with BurstBufferStageIn" \
	reason_is "$b" BurstBufferStageIn
o=$(submit -N1 --wrap 'sleep 1')
wait_jobs_done 40 "$o" "$b"
assert_completed_once "$b" "$o"
for j in "$b" "$o"; do
	wait_for -t 20 "job $j: sacct records it COMPLETED" sacct_completed "$j"
	[ "$(restarts "$j")" = 0 ] || fail "job $j was requeued $(restarts "$j") times"
done
bs=$(date -d "$(sacct_of "$b" Submit)" +%s) bt=$(date -d "$(sacct_of "$b" Start)" +%s)
[ $((bt - bs)) -ge 4 ] ||
	fail "the burst-buffer job started $((bt - bs)) s after its submission, before its 4 s stage-in was done"
log_has "test_amcbf_burstbuffer: stage-in of job $b" ||
	fail "no stage-in of job $b in slurmctld.log"
preempt_tried && fail "a job was preempted (or a preemption tried)"
finish
