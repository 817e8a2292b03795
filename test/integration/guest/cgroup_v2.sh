#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# guest/cgroup_v2.sh BUILD - runs INSIDE the cgroup v2 guest of
# contribs/vm-guest (test_cgroup_v2.sh starts it there): dfrs-nodeagent's
# cgroup v2 path, proven by the CPU time it buys, as test_cpu_slice.sh does
# on v1.  Two always-busy processes pinned to one vCPU; what each got is read
# from its group's cpu.stat usage_usec over the same window, never from
# wall-clock deadlines:
#   the kernel alone, background by cpu.idle=1 and by cpu.weight=1 beside a
#     foreground at cpu.weight=977 (figures; the agent's default must keep
#     the foreground at >= 95 %)
#   a local Slurm cluster (no Slurm cgroups) with the agent in its own
#     groups: yields 0.75/0.25 (Stillwell et al. 2010)  the 0.75 job 70..80 %
#             tiers fg/bg (Liu et al. 2013)  fg >= 95 %, bg <= 5 %
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:?usage: cgroup_v2.sh BUILD}
cg=/sys/fs/cgroup
secs=${DFRS_GUEST_SECONDS:-6}
failures=0
fail() { echo "FAIL: cgroup_v2 (guest): $*"; failures=$((failures + 1)); }

grep -qw cpu "$cg/cgroup.controllers" 2>/dev/null || {
	echo "SKIP: no cgroup v2 cpu controller at $cg in this guest"; exit 77; }
echo "guest: kernel $(uname -r), $(nproc) vCPUs, cgroup v2 controllers: $(cat "$cg/cgroup.controllers")"

usage() { awk '$1 == "usage_usec" { print $2 }' "$1/cpu.stat"; }
# split A B: sets pa, pb (per mille of A+B's CPU time) and ms over $secs s
split() {
	local a0 b0 a1 b1
	a0=$(usage "$1") b0=$(usage "$2")
	sleep "$secs"
	a1=$(usage "$1") b1=$(usage "$2")
	ms=$(((a1 - a0 + b1 - b0) / 1000))
	pa=$(((a1 - a0) * 1000 / (a1 - a0 + b1 - b0 + 1)))
	pb=$(((b1 - b0) * 1000 / (a1 - a0 + b1 - b0 + 1)))
}
pm() { printf '%d.%d %%' $(($1 / 10)) $(($1 % 10)); }

# 1. the kernel alone: which background keeps the foreground faster
echo +cpu > "$cg/cgroup.subtree_control"
mkdir -p "$cg/probe/fg" "$cg/probe/bg"
echo +cpu > "$cg/probe/cgroup.subtree_control"
spins=()
for g in fg bg; do
	taskset -c 0 bash -c 'while :; do :; done' &
	spins+=($!)
	echo $! > "$cg/probe/$g/cgroup.procs"
done
echo 977 > "$cg/probe/fg/cpu.weight"
echo 1 > "$cg/probe/bg/cpu.idle"
sleep 1
split "$cg/probe/fg" "$cg/probe/bg"
idle_fg=$pa
echo "kernel: fg cpu.weight 977 / bg cpu.idle 1: fg $(pm "$pa"), bg $(pm "$pb") of $ms ms CPU on one vCPU"
echo 0 > "$cg/probe/bg/cpu.idle"
echo 1 > "$cg/probe/bg/cpu.weight"
sleep 1
split "$cg/probe/fg" "$cg/probe/bg"
echo "kernel: fg cpu.weight 977 / bg cpu.weight 1: fg $(pm "$pa"), bg $(pm "$pb") of $ms ms CPU on one vCPU"
kill "${spins[@]}"
wait "${spins[@]}" 2>/dev/null
rmdir "$cg/probe/fg" "$cg/probe/bg" "$cg/probe"
[ "$idle_fg" -ge 950 ] || fail "kernel: bg at cpu.idle 1 left fg $(pm "$idle_fg"), want >= 95 %"

# 2. the agent on a local cluster whose slurmd uses no cgroups: its own groups
dir=/tmp/guest-cluster port=17900 node=dfrs/n1
export SLURM_CONF=$dir/slurm.conf
stop() { DFRS_BUILD=$build "$top/contribs/local-cluster" stop --dir "$dir" >/dev/null 2>&1; }
trap stop EXIT
DFRS_BUILD=$build "$top/contribs/local-cluster" start --dir "$dir" --nodes 1 --port $port \
	--node-agent --sched sched/backfill --select select/linear \
	--sched-params bf_interval=1 --part-extra OverSubscribe=FORCE:2 >/dev/null ||
	{ fail "the local cluster did not start"; tail -n 20 "$dir"/*.log; exit 1; }
. "$build/slurm.env" 2>/dev/null
[ -z "${DFRS_SLURM_PREFIX:-}" ] || export PATH=$DFRS_SLURM_PREFIX/bin:$PATH
mkdir -p "$dir/work"
busy() { sbatch --parsable -o /dev/null -w n1 -J "$1" --wrap "exec '$build/dfrs-work' --seconds 600 --dir '$dir/work'" | cut -d';' -f1; }
a=$(busy a) b=$(busy b)

# wait_for SECONDS WHAT COMMAND...: COMMAND succeeds within SECONDS
wait_for() {
	local secs=$1 what=$2 i
	shift 2
	for ((i = 0; i < 4 * secs; i++)); do
		"$@" && return 0
		sleep 0.25
	done
	fail "$what (waited $secs s)"
	return 1
}
work_pid() {	# the job's dfrs-work process
	local p
	for p in $(grep -lzx "SLURM_JOB_ID=$1" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do
		[ "$(readlink "/proc/$p/exe")" = "$build/dfrs-work" ] && { echo "$p"; return 0; }
	done
	return 1
}
wait_for 60 "jobs $a and $b running" work_pid "$a" >/dev/null || { tail -n 20 "$dir/slurmctld.log"; exit 1; }
wait_for 30 "job $b running" work_pid "$b" >/dev/null || exit 1
pa_=$(work_pid "$a") pb_=$(work_pid "$b")
taskset -p -c 0 "$pa_" >/dev/null && taskset -p -c 0 "$pb_" >/dev/null || fail "cannot pin the jobs to vCPU 0"

is() { [ "$(cat "$cg/$node/job_$1/$2" 2>/dev/null)" = "$3" ]; }
in_group() { grep -qx "0::/$node/job_$1" "/proc/$2/cgroup"; }
# case WHAT TAG_A TAG_B FILE_A VALUE_A FILE_B VALUE_B
case_() {
	scontrol update jobid="$a" AdminComment="$2"
	scontrol update jobid="$b" AdminComment="$3"
	wait_for 30 "$1: job $a $4 $5" is "$a" "$4" "$5"
	wait_for 30 "$1: job $b $6 $7" is "$b" "$6" "$7"
	wait_for 10 "$1: job $a's process in $node/job_$a" in_group "$a" "$pa_"
	wait_for 10 "$1: job $b's process in $node/job_$b" in_group "$b" "$pb_"
	sleep 1
	split "$cg/$node/job_$a" "$cg/$node/job_$b"
	echo "agent: $1: job a $(pm "$pa"), job b $(pm "$pb") of $ms ms CPU on one vCPU"
}
# yields first: a group that leaves the background tier while busy carries
# the lead in virtual run time it took there (CFS settles it over seconds,
# with the foreground running alone meanwhile), which would be measured here
case_ "yields 0.75/0.25" dfrs:yield=0.75,need=1 dfrs:yield=0.25,need=1 cpu.weight 732 cpu.weight 244
[ "$pa" -ge 700 ] && [ "$pa" -le 800 ] || fail "yields 0.75/0.25: the 0.75 job got $(pm "$pa"), want 70..80 %"
case_ "tiers fg/bg" dfrs:tier=fg dfrs:tier=bg cpu.weight 977 cpu.idle 1
[ "$pa" -ge 950 ] || fail "tiers: the foreground job got $(pm "$pa"), want >= 95 %"
[ "$pb" -le 50 ] || fail "tiers: the background job got $(pm "$pb"), want <= 5 %"
grep -h "dfrs-nodeagent" "$dir"/nodeagent-n1.log | grep -E "cgroup|job" | sed 's/^/  agent log: /' | head -12

scancel "$a" "$b"
stop
trap - EXIT
[ ! -d "$cg/dfrs" ] || fail "$cg/dfrs left behind after the agent stopped"
[ "$failures" = 0 ] && echo "PASS: cgroup_v2 (guest)"
[ "$failures" = 0 ]
