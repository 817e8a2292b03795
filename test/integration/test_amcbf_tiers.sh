#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_tiers.sh - AMCBF's foreground/background tiers on shared nodes
# (sched/amcbf + select/dfrs, Liu et al. 2013 Algorithms 2-4): a job that finds no
# idle foreground slot starts in the background beside a foreground job whose
# CPU use leaves room, with weights 10000 / 2 in the nodes' cgroups; when the
# foreground job ends, the background job is promoted by swapping weights,
# without a restart (same process, Restarts=0).  A slurmctld restart in
# between keeps both jobs and their tiers (read back from their tags).  The
# time the background job spent there is not charged to its time limit:
# its end time moves on.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster tiers --nodes 2 --port 18400 --node-agent \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 \
	--part-extra OverSubscribe=FORCE:2 ||
	{ fail "cluster did not start"; finish; }

log_has 'amcbf_mode=amcbf ' || fail "not in amcbf mode"
fg=$(submit -N2 --comment=dfrs:need=0.5 --wrap 'sleep 12')
wait_for "fg job running" state_is "$fg" RUNNING
bg=$(submit -N1 -t 1 --comment=dfrs:need=0.4 --wrap 'sleep 20')
wait_for "bg job running beside the fg job" state_is "$bg" RUNNING
node=$(squeue -h -j "$bg" -o %N)
wait_for "fg job tagged fg" comment_is "$fg" dfrs:tier=fg
wait_for "bg job tagged bg" comment_is "$bg" dfrs:tier=bg
wait_for "fg job weight 10000 on $node" shares_is "$node" "$fg" 10000
wait_for "bg job weight 2 on $node" shares_is "$node" "$bg" 2
log_has "amcbf: started JobId=$bg on $node in the bg tier" || fail "no bg start in the log"
pid=$(pgrep -f 'sleep 20' | head -1)

"$cluster" restart-controller --dir "$CLUSTER_DIR" || fail "slurmctld restart failed"
state_is "$fg" RUNNING || fail "fg job lost across the restart"
state_is "$bg" RUNNING || fail "bg job lost across the restart"
sleep 2
comment_is "$bg" dfrs:tier=bg || fail "bg job's tier changed across the restart"
shares_is "$node" "$bg" 2 || fail "bg job's weight changed across the restart"

# the fg job ends: the bg job is promoted in place
for ((i = 0; i < 60; i++)); do state_is "$fg" RUNNING || break; sleep 0.5; done
wait_for "bg job promoted (tag fg)" comment_is "$bg" dfrs:tier=fg
wait_for "promoted job weight 10000" shares_is "$node" "$bg" 10000
log_has "amcbf: JobId=$bg swapped to the fg tier on $node (no restart)" || fail "no promotion in the log"
# seconds from start to end time, as slurmctld holds them now
span() {
	local s e
	s=$(scontrol show job "$1" | sed -n 's/.*StartTime=\([^ ]*\).*/\1/p')
	e=$(scontrol show job "$1" | sed -n 's/.*EndTime=\([^ ]*\).*/\1/p')
	echo $(($(date -d "$e" +%s) - $(date -d "$s" +%s)))
}
# it was in the background for the fg job's 12 s at least
d=$(span "$bg")
[ "$d" -ge 66 ] || fail "bg job: end time $d s after its start, want 60 s + its time in the background"
[ "$(pgrep -f 'sleep 20' | head -1)" = "$pid" ] || fail "the promoted job's process changed: restarted"
[ "$(scontrol show job "$bg" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p')" = 0 ] ||
	fail "the promoted job was restarted"
wait_jobs_done 60 "$fg" "$bg"
assert_completed_once "$fg" "$bg"
stop_cluster
finish
