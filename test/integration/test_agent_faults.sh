#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_agent_faults.sh - select/dfrs and sched/amcbf's amcbf_mode=dfrs on the
# CPU needs dfrs-nodeagent measures, and what they do when an agent dies,
# lags or its node's Extra holds garbage.  Two nodes of 1 CPU, an agent on
# each (--interval 1, --measure-window 3), dfrs_need_stale=6.  Every
# computing job is dfrs-work at duty cycle 0.3 and declares no need.
#  1. a and b run on n1: at dfrs_cpu_need=1 each they share it at yield
#     0.5; once n1's agent has measured them (about 0.3 each), select/dfrs
#     logs the new need, publishes yield 1 with the measured need, and the
#     agent sets cpu.shares to yield x need x 10000.
#  2. kill -9 n1's agent, SIGSTOP n2's (c runs there): their reports go
#     stale; slurmctld logs one line per job naming the node, and the jobs
#     fall back to dfrs_cpu_need (a and b: yield 0.5, need 1 again).
#  3. SIGCONT n2's agent: c's measured need is used again.
#  4. garbage in n1's Extra (scontrol update): one more line naming n1.
# New jobs start after each fault, and every job completes exactly once.
# (Assertions are on what slurmctld and the agents record, not on timing.)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster faults --nodes 2 --cpus 1 --port 18480 --node-agent \
	--sched-params amcbf_mode=dfrs,dfrs_need_stale=6 \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=512 \
	--part-extra OverSubscribe=FORCE:4 ||
	{ fail "cluster did not start"; finish; }
work=$CLUSTER_DIR/work
mkdir -p "$work"
mount=$(cpu_mount)
agent_pid() { cat "$CLUSTER_DIR/nodeagent-$1.pid"; }
# yield 1 at a measured need (below dfrs_cpu_need=1)
measured_full() { [[ "$(comment_of "$1")" =~ ^dfrs:yield=1,need=0\.[0-9]+$ ]]; }
need_of() { comment_of "$1" | sed -n 's/.*need=\([0-9.]*\).*/\1/p'; }
work_job() {
	submit -w "$1" -J "$2" --wrap "exec '$build/dfrs-work' --seconds 45 --need 0.3 --quantum 0.25 --dir '$work'"
}
said() { grep -c -- "JobId=$1: measured CPU need not used, dfrs_cpu_need=1 instead: $2" \
	"$CLUSTER_DIR/slurmctld.log"; }
said_once() { [ "$(said "$1" "$2")" = 1 ]; }
ids=()

# 1. yields from measured needs
a=$(work_job n1 a); ids+=("$a")
b=$(work_job n1 b); ids+=("$b")
c=$(work_job n2 c); ids+=("$c")
for j in "$a" "$b" "$c"; do wait_for "job $j running" state_is "$j" RUNNING; done
wait_for -t 20 "job $a: yield 1 at its measured need" measured_full "$a"
wait_for -t 20 "job $b: yield 1 at its measured need" measured_full "$b"
# the log prints the need as %.2f, SystemComment as %.4g (0.30 and 0.3), and
# the need may have moved by a hundredth since: compare the numbers
logged=$(grep -o "JobId=$a: CPU need 1\.00 -> [0-9.]* per node (measured): yields reallocated" \
	"$CLUSTER_DIR/slurmctld.log" | head -1 | sed 's/.*-> \([0-9.]*\) per node.*/\1/')
if [ -z "$logged" ]; then
	fail "job $a: no log line for its measured need"
elif ! awk -v l="$logged" -v n="$(need_of "$a")" 'BEGIN { d = l - n; exit !(l < 1 && d <= 0.1 && d >= -0.1) }'; then
	fail "job $a: logged measured need $logged, SystemComment says $(need_of "$a")"
fi
scontrol show node n1 | grep -o 'dfrs:measured=[^ ]*'
comment_of "$a"
# the agent applies yield x need
shares_ok() {
	local s
	s=$(cat "$mount/dfrs/n1/job_$1/cpu.shares" 2>/dev/null) || return 1
	awk -v s="$s" -v n="$(need_of "$1")" 'BEGIN { d = s - n * 10000; exit !(d <= 1 && d >= -1) }'
}
[ -n "$mount" ] || fail "no cgroup v1 cpu controller"
wait_for "job $a: n1's agent sets cpu.shares to 1 x its measured need x 10000" shares_ok "$a"
echo "job $a: cpu.shares $(cat "$mount/dfrs/n1/job_$a/cpu.shares" 2>/dev/null)"

# 2. an agent dies, another lags
kill -9 "$(agent_pid n1)"
kill -STOP "$(agent_pid n2)"
wait_for -t 30 "job $a: the stale report of n1 said" said_once "$a" "node n1's report is"
wait_for -t 30 "job $c: the stale report of n2 said" said_once "$c" "node n2's report is"
wait_for -t 15 "job $a: back at dfrs_cpu_need (yield 0.5) beside $b" \
	comment_is "$a" dfrs:yield=0.5,need=1
e=$(submit --wrap 'sleep 1'); ids+=("$e")
wait_jobs_done 30 "$e"

# 3. the lagging agent goes on
kill -CONT "$(agent_pid n2)"
wait_for -t 20 "job $c: its measured need used again" measured_full "$c"

# 4. garbage in n1's Extra
scontrol update nodename=n1 extra="dfrs:measured=$a:lots@1" || fail "cannot set Extra"
wait_for -t 15 "job $a: the malformed report of n1 said" said_once "$a" "node n1's Extra:"
f=$(submit --wrap 'sleep 1'); ids+=("$f")
wait_jobs_done 30 "$f"

wait_jobs_done 90 "${ids[@]}"
assert_completed_once "${ids[@]}"
# each fault said once per job, not once per cycle
for k in "$a node n1's report is" "$b node n1's report is" "$c node n2's report is" \
	"$a node n1's Extra:"; do
	n=$(said "${k%% *}" "${k#* }")
	[ "$n" = 1 ] || fail "job ${k%% *}: '${k#* }' said $n times, want 1"
done
grep -E "measured CPU need not used|CPU need .* per node \(measured\)" "$CLUSTER_DIR/slurmctld.log" |
	sed 's/^.*\] //'
# n1's agent died: the groups of its jobs, now empty, are left to us
for j in "$a" "$b" "$e" "$f"; do rmdir "$mount/dfrs/n1/job_$j" 2>/dev/null; done
finish
