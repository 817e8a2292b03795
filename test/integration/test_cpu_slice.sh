#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_cpu_slice.sh - CPU weights enforced, proven by the CPU time they buy.
# One node that is half a core (local-cluster --cpu-slice 0.5: its own cgroup,
# pinned to one CPU, CFS bandwidth 10 ms per 20 ms), two always-busy
# dfrs-work jobs on it, each in its own group inside the node's (placed there
# by dfrs-nodeagent).  What each job got is read from its group's
# cpuacct.usage over the same window, as a share of what the node's group
# got, never from wall-clock timing:
#   foreground / background tiers (Liu et al. 2013)  fg > 85 %, bg < 10 %
#   equal weights                                    each within 35..65 %
#   DFRS yields 0.75 / 0.25 (Stillwell et al. 2010)  0.75 job 62..88 %
# and the node's group never gets more than its half core.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

port=17740
start_cluster slice --nodes 1 --port $port --cpu-slice 0.5 --node-agent \
	--sched sched/backfill --select select/linear \
	--sched-params bf_interval=1 --part-extra OverSubscribe=FORCE:2 ||
	{ fail "cluster with a CPU-slice node did not start"; finish; }
mount=$(cpu_mount)
acct=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpuacct(,|$)/ {print $2; exit}' /proc/mounts)
node=dfrs/c$port/n1
if [ -z "$mount" ] || [ -z "$acct" ]; then fail "needs cgroup v1 cpu and cpuacct"; finish; fi
if [ "$(cat "$mount/$node/cpu.cfs_quota_us")" != 10000 ] || [ "$(cat "$mount/$node/cpu.cfs_period_us")" != 20000 ]; then
	fail "node group: cpu.cfs_quota_us $(cat "$mount/$node/cpu.cfs_quota_us"), want 10000 per 20000 us"
fi

work=$CLUSTER_DIR/work
mkdir -p "$work"
busy() { submit -w n1 -J "$1" --wrap "exec '$build/dfrs-work' --seconds 600 --dir '$work'"; }
a=$(busy a)
b=$(busy b)
wait_for "jobs $a and $b both running" \
	sh -c "[ \"\$(squeue -h -t R -j $a,$b -o %i | wc -l)\" = 2 ]"

in_group() {	# the job's dfrs-work process is in its groups inside the node's
	local pid
	pid=$(grep -lzx "SLURM_JOB_ID=$1" /proc/[0-9]*/environ 2>/dev/null |
		sed 's|/proc/\([0-9]*\)/environ|\1|' | while read -r p; do
		[ "/proc/$p/exe" -ef "$build/dfrs-work" ] && echo "$p"; done | head -1)
	[ -n "$pid" ] && grep -qx "$pid" "$mount/$node/job_$1/cgroup.procs" &&
		grep -qx "$pid" "$acct/$node/job_$1/cgroup.procs"
}
usage() { cat "$acct/$1/cpuacct.usage"; }

# measure CASE TAG_A TAG_B WEIGHT_A WEIGHT_B: set the tags, wait for the
# weights, then sets pa and pb to each job's percent of the node's CPU time
# over 8 s
measure() {
	local what=$1 a0 b0 n0 a1 b1 n1 t0 t1
	scontrol update jobid="$a" AdminComment="$2"
	scontrol update jobid="$b" AdminComment="$3"
	wait_for "$what: job $a at cpu.shares $4" shares_is "${node#dfrs/}" "$a" "$4"
	wait_for "$what: job $b at cpu.shares $5" shares_is "${node#dfrs/}" "$b" "$5"
	wait_for "$what: job $a in its groups inside $node" in_group "$a"
	wait_for "$what: job $b in its groups inside $node" in_group "$b"
	sleep 1		# the previous case's weights out of the kernel's averages
	a0=$(usage "$node/job_$a") b0=$(usage "$node/job_$b") n0=$(usage "$node")
	t0=$(date +%s%N)
	sleep 8
	a1=$(usage "$node/job_$a") b1=$(usage "$node/job_$b") n1=$(usage "$node")
	t1=$(date +%s%N)
	pa=$(((a1 - a0) * 100 / (n1 - n0)))
	pb=$(((b1 - b0) * 100 / (n1 - n0)))
	echo "$what: job a $pa %, job b $pb % of the node's $(((n1 - n0) / 1000000)) ms CPU" \
		"in $(((t1 - t0) / 1000000)) ms"
	# the kernel's bandwidth limit: at most half a core (and a period's slack)
	[ $((n1 - n0)) -le $(((t1 - t0) / 2 + 100000000)) ] ||
		fail "$what: the node's group got $(((n1 - n0) / 1000000)) ms CPU in $(((t1 - t0) / 1000000)) ms, above its half core"
}

measure "fg/bg tiers" dfrs:tier=fg dfrs:tier=bg 10000 2
[ "$pa" -gt 85 ] || fail "foreground job got $pa % of the node's CPU, want > 85 %"
[ "$pb" -lt 10 ] || fail "background job got $pb % of the node's CPU, want < 10 %"

measure "equal weights" dfrs:weight=1024 dfrs:weight=1024 1024 1024
for p in "$pa" "$pb"; do
	in_range "$p" 35 65 || fail "equal weights: a job got $p % of the node's CPU, want 35..65 %"
done

measure "DFRS yields 0.75/0.25" dfrs:yield=0.75,need=1 dfrs:yield=0.25,need=1 7500 2500
share=$((pa * 100 / (pa + pb)))
in_range "$share" 62 88 ||
	fail "yields 0.75/0.25: the 0.75 job got $share % of the two jobs' CPU, want 62..88 %"

scancel "$a" "$b"
wait_jobs_done 60 "$a" "$b"
stop_cluster
for m in "$mount" "$acct"; do
	[ ! -d "$m/dfrs/c$port" ] || fail "$m/dfrs/c$port left behind after stop"
done
finish
