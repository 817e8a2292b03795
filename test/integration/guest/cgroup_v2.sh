#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# guest/cgroup_v2.sh BUILD [--probe] - runs INSIDE the cgroup v2 guest of
# contribs/vm-guest (test_cgroup_v2.sh starts it there): dfrs-nodeagent's
# cgroup v2 path, proven by the CPU time it buys, as test_cpu_slice.sh does
# on v1.  Two always-busy processes pinned to one vCPU; what each got is read
# from its group's cpu.stat usage_usec over the same window, never from
# wall-clock deadlines:
#   with --probe, first the kernel alone: background by cpu.idle=1 and by
#     cpu.weight=1 beside a foreground at cpu.weight=977 (figures, and the
#     agent's default must keep the foreground at >= 95 %)
#   a local Slurm cluster, twice: with no Slurm cgroups (the agent's own
#   groups), then with Slurm's cgroup/v2 plugin (proctrack/cgroup,
#   task/cgroup; the agent writes into slurmstepd's job groups and must
#   move no process):
#     yields 0.75/0.25 (Stillwell et al. 2010)  the 0.75 job 70..80 %
#     tiers fg/bg (Liu et al. 2013)  fg >= 95 %, bg <= 5 %
set -uo pipefail
export DFRS_BUILD=${1:?usage: cgroup_v2.sh BUILD [--probe]}
probe=${2:-}
. "$(dirname "$0")/../lib.sh"	# top, build, fail, wait_for, submit, finish
cg=/sys/fs/cgroup
secs=${DFRS_GUEST_SECONDS:-5}

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
probe_kernel() {
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
}
[ "$probe" = --probe ] && probe_kernel

work_pid() {	# the job's dfrs-work process
	local p pids
	# a here-string, not < <(...): the guest's initramfs has no /dev/fd
	pids=$(grep -lzx "SLURM_JOB_ID=$1" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3)
	while read -r p; do
		[ "$(readlink "/proc/$p/exe")" = "$build/dfrs-work" ] && { echo "$p"; return 0; }
	done <<<"$pids"
	return 1
}
v2_path() { sed -n 's|^0::/||p' "/proc/$1/cgroup"; }
is() { [ "$(cat "$cg/$1/$2" 2>/dev/null)" = "$3" ]; }

# 2. the agent on a local cluster: cluster MODE, MODE "own" (slurmd uses no
# cgroups: the agent's groups dfrs/n1/job_ID) or "slurm" (Slurm's cgroup/v2
# plugin: slurmstepd's .../job_ID)
dir=/tmp/guest-cluster port=17900
export SLURM_CONF=$dir/slurm.conf
stop() { DFRS_BUILD=$build "$top/contribs/local-cluster" stop --dir "$dir" >/dev/null 2>&1; }
trap stop EXIT
cluster() {
	local mode=$1 extra=() a b pa_ pb_ ga gb before_a before_b
	rm -rf "$dir"
	mkdir -p "$dir/work"
	if [ "$mode" = slurm ]; then
		# Slurm's cgroup/v2 without systemd (IgnoreSystemd=yes, 22.05.8 and
		# later).  Debian's 22.05 slurmd (its emulator build) does not make
		# the stepd scope itself, so it is made here, as systemd's
		# Delegate=yes or slurmd would, without enabling any controller in
		# it (Slurm's CgroupAutomount or the agent does)
		printf 'CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\nCgroupAutomount=yes\nConstrainCores=no\n' > "$dir/cgroup.conf"
		mkdir -p "$cg/system.slice/n1_slurmstepd.scope"
		extra=(--conf ProctrackType=proctrack/cgroup --conf TaskPlugin=task/cgroup)
	fi
	DFRS_BUILD=$build "$top/contribs/local-cluster" start --dir "$dir" --nodes 1 --port $port \
		--node-agent --sched sched/backfill --select select/linear \
		--sched-params bf_interval=1 --part-extra OverSubscribe=FORCE:2 "${extra[@]}" >/dev/null ||
		{ fail "$mode: the local cluster did not start"; tail -n 20 "$dir"/*.log; return 1; }
	busy() { submit -w n1 -J "$1" --wrap "exec '$build/dfrs-work' --seconds 600 --dir '$dir/work'"; }
	a=$(busy a) b=$(busy b)
	wait_for -t 60 "$mode: job $a running" work_pid "$a" >/dev/null ||
		{ tail -n 20 "$dir/slurmctld.log" "$dir/slurmd-n1.log"; return 1; }
	wait_for -t 30 "$mode: job $b running" work_pid "$b" >/dev/null || return 1
	pa_=$(work_pid "$a") pb_=$(work_pid "$b")
	if ! taskset -p -c 0 "$pa_" >/dev/null || ! taskset -p -c 0 "$pb_" >/dev/null; then
		fail "$mode: cannot pin the jobs to vCPU 0"
	fi
	if [ "$mode" = slurm ]; then
		before_a=$(v2_path "$pa_") before_b=$(v2_path "$pb_")
		ga=${before_a%%/job_"$a"/*}/job_$a gb=${before_b%%/job_"$b"/*}/job_$b
		[[ $before_a == system.slice/n1_slurmstepd.scope/job_$a/* ]] ||
			fail "slurm: job $a's process is in '$before_a', not in slurmstepd's job group"
	else
		ga=dfrs/n1/job_$a gb=dfrs/n1/job_$b
	fi
	# one case: WHAT TAG_A TAG_B FILE_A VALUE_A FILE_B VALUE_B
	case_() {
		scontrol update jobid="$a" AdminComment="$2"
		scontrol update jobid="$b" AdminComment="$3"
		wait_for -t 30 "$mode: $1: job $a $4 $5" is "$ga" "$4" "$5"
		wait_for -t 30 "$mode: $1: job $b $6 $7" is "$gb" "$6" "$7"
		wait_for "$mode: $1: job $a's process in $ga" \
			sh -c "grep -q '^0::/$ga\(/\|\$\)' /proc/$pa_/cgroup"
		wait_for "$mode: $1: job $b's process in $gb" \
			sh -c "grep -q '^0::/$gb\(/\|\$\)' /proc/$pb_/cgroup"
		sleep 1
		split "$cg/$ga" "$cg/$gb"
		echo "agent ($mode groups): $1: job a $(pm "$pa"), job b $(pm "$pb") of $ms ms CPU on one vCPU"
	}
	# yields first: a group that leaves the background tier while busy
	# carries the lead in virtual run time it took there (CFS settles it
	# over seconds, the other job running alone meanwhile)
	case_ "yields 0.75/0.25" dfrs:yield=0.75,need=1 dfrs:yield=0.25,need=1 cpu.weight 732 cpu.weight 244
	in_range "$pa" 700 800 || fail "$mode: yields 0.75/0.25: the 0.75 job got $(pm "$pa"), want 70..80 %"
	case_ "tiers fg/bg" dfrs:tier=fg dfrs:tier=bg cpu.weight 977 cpu.idle 1
	[ "$pa" -ge 950 ] || fail "$mode: tiers: the foreground job got $(pm "$pa"), want >= 95 %"
	[ "$pb" -le 50 ] || fail "$mode: tiers: the background job got $(pm "$pb"), want <= 5 %"
	if [ "$mode" = slurm ]; then
		if [ "$(v2_path "$pa_")" != "$before_a" ] || [ "$(v2_path "$pb_")" != "$before_b" ]; then
			fail "slurm: a job's process was moved: $(v2_path "$pa_"), $(v2_path "$pb_")"
		fi
		[ ! -d "$cg/dfrs" ] || fail "slurm: the agent made groups of its own ($cg/dfrs)"
		grep -qw cpu "$cg/system.slice/n1_slurmstepd.scope/cgroup.subtree_control" ||
			fail "slurm: cpu not enabled in n1_slurmstepd.scope's cgroup.subtree_control"
	fi
	grep -h "dfrs-nodeagent" "$dir/nodeagent-n1.log" | grep -E "hierarchy|job $a:|job $b:" |
		sed 's/^/  agent log: /' | tail -n 5
	scancel "$a" "$b"
	stop
	[ ! -d "$cg/dfrs" ] || fail "$mode: $cg/dfrs left behind after the agent stopped"
}
cluster own
cluster slurm
trap - EXIT
finish
