#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_select_dfrs.sh - select/dfrs on a live cluster: jobs share nodes,
# memory is never oversubscribed, CPU is shared by yields that slurmctld
# publishes (SystemComment) and the node agents enforce (cpu.shares); yields
# follow suspend, resume and job end; a job that would push others below
# their minimum yield waits; a slurmctld restart keeps the model; every job
# ends exactly once.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# 2 nodes of 2 CPUs and 4096 MB; linear tracks memory and lets jobs share
# any scheduler: Slurm's FIFO here (sched/amcbf's tiered modes own tiers instead
# of yields: test_amcbf_tiers.sh).  dfrs_need_stale=0: the yields here come
# from declared needs and dfrs_cpu_need (the sleep jobs' measured needs,
# 0.01, would change them: test_agent_faults.sh tests measured needs)
start_cluster share --nodes 2 --port 17900 --node-agent --sched sched/builtin \
	--sched-params dfrs_need_stale=0 \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 \
	--part-extra OverSubscribe=FORCE:8 ||
	{ fail "cluster did not start"; finish; }

node_is() { [ "$(squeue -h -j "$1" -o %N)" = "$2" ]; }
# expect JOB NODE YIELD-TAG WEIGHT
expect() {
	wait_for "job $1 on $2" node_is "$1" "$2"
	wait_for "job $1: SystemComment $3" comment_is "$1" "$3"
	wait_for "job $1: cpu.shares $4 on $2" shares_is "$2" "$1" "$4"
}

ids=()
a=$(submit --wrap 'sleep 300'); ids+=("$a")
wait_for "job $a running" state_is "$a" RUNNING
b=$(submit --wrap 'sleep 300'); ids+=("$b")
wait_for "job $b running" state_is "$b" RUNNING
c=$(submit --wrap 'sleep 300'); ids+=("$c")
wait_for "job $c running" state_is "$c" RUNNING
d=$(submit --comment=dfrs:need=0.5 --wrap 'sleep 300'); ids+=("$d")
# least CPU-loaded node first, ties to the lowest index:
# n1 gets a and c (need 1 each), n2 gets b (need 1) and d (need 0.5); the
# agents compute weights from the published yield (4 digits): 0.6667 x 0.5
expect "$a" n1 dfrs:yield=0.5,need=1 5000
expect "$c" n1 dfrs:yield=0.5,need=1 5000
expect "$b" n2 dfrs:yield=0.6667,need=1 6667
expect "$d" n2 dfrs:yield=0.6667,need=0.5 3334

# dfrs status shows each node's jobs from the model the plugin exports
# (dfrs-nodes.json, written by the plugin's writer thread after the locks:
# polled until it shows the latest model)
status_has() { "$build/dfrs" status 2>/dev/null | grep -E "$1" >/dev/null; }
status_lacks() {
	local out
	out=$("$build/dfrs" status 2>/dev/null) && ! grep -qE "$1" <<<"$out"
}
wait_for "dfrs status: n1 line" status_has "^n1 +2\.000 +0\.500$"
wait_for "dfrs status: job $a line" status_has "^ +$a +0\.500 +1 +0\.25 +0\.25 +5000$"
wait_for "dfrs status: job $d line" status_has "^ +$d +0\.667 +0\.5 +0\.25 +0\.25 +3333$"

# memory is rigid: 2500 MB fits on neither node (2048 MB free on each)
e=$(submit --mem=2500 --wrap 'sleep 300'); ids+=("$e")
# a minimum yield of 0.9 would push the others below theirs (0.25)
f=$(submit --comment=dfrs:min_yield=0.9 --mem=100 --wrap 'sleep 1'); ids+=("$f")
sleep 3
state_is "$e" PENDING || fail "job $e (2500 MB) started though no node has the memory"
state_is "$f" PENDING || fail "job $f (min yield 0.9) started though it would push others below theirs"

# a suspended job keeps its memory and gives its CPU to the others
scontrol suspend "$a"
wait_for "job $c: yield 1 while $a is suspended" comment_is "$c" dfrs:yield=1,need=1
wait_for "job $c: cpu.shares 10000" shares_is n1 "$c" 10000
wait_for "dfrs status: job $a suspended" status_has "^ +$a .* suspended$"
wait_for "dfrs status: job $c at yield 1" status_has "^ +$c +1\.000 "
scontrol resume "$a"
wait_for "job $c: yield 0.5 again after resume" comment_is "$c" dfrs:yield=0.5,need=1

# a restarted slurmctld rebuilds the model from its saved job records
"$cluster" restart-controller --dir "$CLUSTER_DIR" || fail "slurmctld restart failed"
rebuilt() { log_has 'select/dfrs: ensure_model: model rebuilt: 4 running or suspended jobs on 2 nodes'; }
wait_for "model rebuilt from the 4 running jobs after the restart" rebuilt
state_is "$e" PENDING || fail "job $e started after the restart though no node has the memory"
state_is "$f" PENDING || fail "job $f started after the restart below the others' minimum yields"
comment_is "$a" dfrs:yield=0.5,need=1 || fail "job $a: yield changed across the restart"

# when a ends, c has n1's CPU ... until e, which now has memory there, starts
scancel "$a"
wait_for "job $e starts on n1 once a's memory is free" node_is "$e" n1
expect "$c" n1 dfrs:yield=0.5,need=1 5000
expect "$e" n1 dfrs:yield=0.5,need=1 5000
state_is "$f" PENDING || fail "job $f started below the others' minimum yields"
wait_for "dfrs status: job $a gone" status_lacks "^ +$a "
wait_for "dfrs status: job $e on n1" status_has "^ +$e +0\.500 +1 "

scancel "$b" "$c" "$d" "$e" "$f"
wait_jobs_done 60 "${ids[@]}"
# the last of these quick changes reaches the file: no job left in it
wait_for "dfrs status: both nodes idle" status_has "^n2 .*\(idle\)$"
wait_for "dfrs status: no job line" status_lacks "^ +[0-9]+ "
for id in "${ids[@]}"; do
	n=$(grep -c "^JobId=$id " "$CLUSTER_DIR/jobcomp.txt")
	[ "$n" = 1 ] || fail "job $id has $n jobcomp records, want exactly 1"
done
stop_cluster
finish
