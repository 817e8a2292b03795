#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_node_agent.sh - dfrs-nodeagent beside each slurmd puts every job's
# processes in its own cpu cgroup and keeps cpu.shares equal to the weight the
# job's dfrs tag asks for, follows changes within seconds, ignores a malformed
# tag with one log line, gives a job Slurm is ending the foreground weight
# while its processes exit (a job held at weight 2 that ignores SIGTERM is
# cancelled: KillWait=15, so its processes stay until SIGKILL, which the
# test then sends), removes the
# group when the job ends, leaves another
# cluster's processes alone, and without a usable cpu controller warns once
# while jobs still run.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# select/linear: no controller-side tags, so the agent's own defaults and the
# administrator's AdminComment tags are what is tested here (select/dfrs's
# yields through the agent: test_select_dfrs.sh)
start_cluster agent --nodes 2 --port 17600 --node-agent --select select/linear \
	--conf KillWait=15 ||
	{ fail "cluster with node agents did not start"; finish; }
mount=$(cpu_mount)
[ -n "$mount" ] || { fail "no cgroup v1 cpu controller on this machine"; finish; }

group_gone() { [ ! -d "$mount/dfrs/$1/job_$2" ]; }
in_group() {	# job $2 has processes, and every one is in its group on node $1
	local pid found=0
	for pid in $(pgrep -f "sleep 6[0-9]"); do
		if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -x "SLURM_JOB_ID=$2" >/dev/null; then
			found=$((found + 1))
			grep -qx "$pid" "$mount/dfrs/$1/job_$2/cgroup.procs" || return 1
		fi
	done
	[ "$found" -gt 0 ]	# no process at all proves nothing
}

a=$(submit -w n1 --wrap 'sleep 61')
b=$(submit -w n2 --wrap 'sleep 62')
wait_for "job $a: group with the default weight 1024" shares_is n1 "$a" 1024
wait_for "job $b: group with the default weight 1024" shares_is n2 "$b" 1024
wait_for "job $a: its processes in its group" in_group n1 "$a"
in_group n1 999999 && fail "in_group holds for a job that has no process"

# clusters side by side on one machine reuse node names and job ids: a
# process with this job's id and node but another cluster's name stays out of
# the group; one with this cluster's name is taken.  Both run before the pass
# that takes the second, and a pass moves all of a job's processes at once.
ours=$(scontrol show config | awk '$1 == "ClusterName" {print $3}')
[ -n "$ours" ] || fail "no ClusterName in scontrol show config"
grep -q "cluster $ours: only processes of its jobs are taken" \
	"$CLUSTER_DIR/nodeagent-n1.log" || fail "the agent did not log the cluster it serves"
env SLURM_JOB_ID="$a" SLURMD_NODENAME=n1 SLURM_CLUSTER_NAME=elsewhere sleep 71 &
foreign=$!
env SLURM_JOB_ID="$a" SLURMD_NODENAME=n1 SLURM_CLUSTER_NAME="$ours" sleep 72 &
own=$!
wait_for "job $a: a process with this cluster's name taken into its group" \
	grep -qx "$own" "$mount/dfrs/n1/job_$a/cgroup.procs"
grep -qx "$foreign" "$mount/dfrs/n1/job_$a/cgroup.procs" &&
	fail "job $a: another cluster's process with the same job id and node was taken"
kill "$foreign" "$own" 2>/dev/null; wait "$foreign" "$own" 2>/dev/null

scontrol update jobid="$a" AdminComment="dfrs:weight=5000"
wait_for "job $a: cpu.shares 5000 after AdminComment dfrs:weight=5000" shares_is n1 "$a" 5000
scontrol update jobid="$a" AdminComment="dfrs:tier=bg"
wait_for "job $a: cpu.shares 2 after dfrs:tier=bg" shares_is n1 "$a" 2
scontrol update jobid="$a" AdminComment="dfrs:yield=0.5,need=0.4"
wait_for "job $a: cpu.shares 2000 after yield 0.5 x need 0.4" shares_is n1 "$a" 2000
shares_is n2 "$b" 1024 || fail "job $b: weight changed though its tag did not"

scontrol update jobid="$a" AdminComment="dfrs:weight=1"
wait_for "job $a: back to 1024 after a malformed tag" shares_is n1 "$a" 1024
n=$(grep -c "job $a: AdminComment ignored: dfrs tag: weight=1 is not an integer in 2..262144" \
	"$CLUSTER_DIR/nodeagent-n1.log")
[ "$n" = 1 ] || fail "malformed tag logged $n times, want once"

# no usable controller: one warning, the job still runs to the end
c=$(submit -w n2 --wrap 'sleep 1')
"$build/dfrs-nodeagent" --node n2 --once --controller nosuchcontroller \
	--log "$CLUSTER_DIR/agent-nocontroller.log"
grep -q "warning: not enforcing CPU weights: the 'nosuchcontroller' cgroup controller is not mounted (cgroup v1); jobs run with the kernel's default shares" \
	"$CLUSTER_DIR/agent-nocontroller.log" || fail "no warning without a cpu controller"

scancel "$a" "$b"
wait_for "job $a: group removed after the job ended" group_gone n1 "$a"
wait_for "job $b: group removed after the job ended" group_gone n2 "$b"
# an ending job (n1 is free now: select/linear gives a job the whole node):
# cancelled, its processes ignore SIGTERM until KillWait ends
e=$(submit -w n1 --wrap "trap '' TERM; sleep 64")
scontrol update jobid="$e" AdminComment="dfrs:tier=bg"
wait_for -t 30 "job $e: started, cpu.shares 2 after dfrs:tier=bg" shares_is n1 "$e" 2
scancel "$e"
wait_for "job $e: cpu.shares 10000 while Slurm ends it" shares_is n1 "$e" 10000
wait_for "job $e: the agent's line of the ending job's weight" grep -q \
	"job $e: cpu.shares 2 -> 10000 (Slurm is ending the job)" "$CLUSTER_DIR/nodeagent-n1.log"
# SIGKILL now, to its group's processes, not to wait for KillWait
xargs -r kill -KILL <"$mount/dfrs/n1/job_$e/cgroup.procs" 2>/dev/null
wait_for -t 40 "job $e: group removed after the job ended" group_gone n1 "$e"
wait_jobs_done 60 "$c"
assert_completed_once "$c"
stop_cluster
[ ! -d "$mount/dfrs/n1" ] || fail "node group $mount/dfrs/n1 left behind after stop"
finish
