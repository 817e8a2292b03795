#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_policy_timelimit.sh - partition MaxTime as a wall-clock bound
# on sched/amcbf's time-limit extension (amcbf_extend_past_limits=0, the
# default).  Two nodes shared in AMCBF's tiers (OverSubscribe=FORCE:2); a
# foreground job runs on both; then:
#  U (partition debug, MaxTime=INFINITE, -t 1) runs in the background
#    beside it: its end time moves on past start + 60 s, as Liu et al.'s
#    background jobs are paid back (the same code path
#    amcbf_extend_past_limits=1 takes for every job);
#  S (partition short, MaxTime=1, -t 1), whose end time MaxTime leaves no
#    room to move, is not slowed: it never starts in the background, it
#    waits and starts in the foreground once the foreground job is gone,
#    its end time at its start + 60 s.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster tl --accounting --nodes 2 --port 18730 \
	--sched-params amcbf_interval=1 \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 \
	--part-extra OverSubscribe=FORCE:2 \
	--conf "PartitionName=short Nodes=ALL MaxTime=1 OverSubscribe=FORCE:2 State=UP" ||
	{ fail "cluster did not start"; finish; }
# seconds from start to end time, as slurmctld holds them now
span() {
	local s e
	s=$(scontrol show job "$1" | sed -n 's/.*StartTime=\([^ ]*\).*/\1/p')
	e=$(scontrol show job "$1" | sed -n 's/.*EndTime=\([^ ]*\).*/\1/p')
	echo $(($(date -d "$e" +%s) - $(date -d "$s" +%s)))
}
span_over() { [ "$(span "$1")" -gt "$2" ]; }

fg=$(submit -N2 --comment=dfrs:need=0.5 --wrap 'sleep 60')
wait_for "fg job running" state_is "$fg" RUNNING
s=$(submit -p short -N1 -t 1 --comment=dfrs:need=0.4 --wrap 'sleep 50')
u=$(submit -N1 -t 1 --comment=dfrs:need=0.4 --wrap 'sleep 50')
wait_for "U running in the background" state_is "$u" RUNNING
log_has "started JobId=$u on .* in the bg tier" || fail "U did not start in the bg tier"
# U's end moves on with its time in the background ...
wait_for -t 30 "U's end time past its start + 65 s" span_over "$u" 65
# ... while S, which could not be paid back, waits for the foreground
state_is "$s" PENDING || fail "S is $(squeue -h -j "$s" -o %T), want PENDING (MaxTime=1 leaves its end time no room)"
log_has "started JobId=$s on .* in the bg tier" && fail "S started in the bg tier"
scancel "$fg"
wait_for -t 20 "S running once the foreground job is gone" state_is "$s" RUNNING
log_has "started JobId=$s on .* in the fg tier" || fail "S did not start in the fg tier"
[ "$(span "$s")" = 60 ] || fail "S: end time $(span "$s") s after its start, want 60 (partition MaxTime=1)"
scancel "$s" "$u"
wait_jobs_done 30 "$fg" "$s" "$u"
finish
