#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_avail_ends.sh - what the availability policy "wait" (He et
# al. 2012, Sec. III) must not cost a job, on a live cluster: two nodes
# shared in AMCBF's tiers (select/dfrs, CR_Memory, OverSubscribe=FORCE:2),
# slots of 1 s.
#  1  A drain lets jobs finish (amcbf_avail_drain_acts=0, the default): a
#     job whose node is drained runs on, is never suspended, completes.
#  2  A wait has an end, and a resumed job keeps its time
#     (amcbf_avail_drain_acts=1, amcbf_avail_wait_factor=0.03: 0.03 times
#     an OFF period never seen ending, 100 slots, is 3 s): a background job,
#     whose end time sched/amcbf moved on while it ran there, is suspended
#     when its node is drained, resumed where it is after about 3 s while
#     the node is still drained (one log line), and keeps the time it had
#     left when suspended, extension included (Slurm's resume alone gives
#     now + time limit - run so far); it is not suspended again, and
#     completes.
# Every job completes exactly once.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster ends --nodes 2 --port 19660 \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 \
	--part-extra OverSubscribe=FORCE:2 \
	--sched-params amcbf_mode=amcbf,amcbf_interval=2,amcbf_avail_policy=wait,amcbf_avail_slot=1 ||
	{ fail "cluster did not start"; finish; }
epoch_of() {	# epoch seconds of a job's FIELD (StartTime, EndTime, ...)
	date -d "$(scontrol show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p")" +%s
}
log_epoch() {	# epoch seconds of the first log line matching $1
	local t
	t=$(grep -m1 -- "$1" "$CLUSTER_DIR/slurmctld.log" | sed -n 's/^\[\([^].]*\).*/\1/p')
	[ -n "$t" ] && date -d "$t" +%s
}

# 1: drained for maintenance, the job finishes
j1=$(submit -N1 -w n1 --wrap 'sleep 8')
wait_for "1: JobId=$j1 running" state_is "$j1" RUNNING
scontrol update nodename=n1 state=drain reason=maintenance
sleep 4
state_is "$j1" RUNNING || fail "1: JobId=$j1 is $(squeue -h -j "$j1" -o %T) on a node drained for maintenance"
log_has "availability: suspended JobId=$j1 " && fail "1: JobId=$j1 was suspended for a drain"
wait_jobs_done 30 "$j1"
scontrol update nodename=n1 state=resume

# 2: the site asks drains to act; a short bound
sed -i 's/amcbf_avail_slot=1/amcbf_avail_slot=1,amcbf_avail_drain_acts=1,amcbf_avail_wait_factor=0.03/' \
	"$CLUSTER_DIR/slurm.conf"
scontrol reconfigure || fail "scontrol reconfigure failed"
wait_for "2: reconfigured" log_has "amcbf_avail_wait_factor=0.03 amcbf_avail_drain_acts=1 "
# the two jobs run until the test writes go-JOBID, once it has checked them
rm -f "$CLUSTER_DIR"/go-*	# an earlier run's
gated="until [ -e '$CLUSTER_DIR'/go-\$SLURM_JOB_ID ]; do sleep 0.5; done"
fg=$(submit -N2 --comment=dfrs:need=0.5 --wrap "$gated")
wait_for "2: fg job running" state_is "$fg" RUNNING
bg=$(submit -N1 -t 1 --comment=dfrs:need=0.4 --wrap "$gated")
wait_for "2: bg job running beside the fg job" state_is "$bg" RUNNING
node=$(squeue -h -j "$bg" -o %N)
log_has "amcbf: started JobId=$bg on $node in the bg tier" || fail "2: JobId=$bg did not start in the bg tier"
# its end time moves on while it runs in the background
sleep 14
ran=$(($(date +%s) - $(epoch_of "$bg" StartTime)))
scontrol update nodename="$node" state=drain reason=avail-ends
wait_for "2: bg job suspended for its drained node" state_is "$bg" SUSPENDED
end_before=$(epoch_of "$bg" EndTime)
suspended=$(log_epoch "availability: suspended JobId=$bg ")
[ -n "$suspended" ] || fail "2: no suspension of JobId=$bg logged"
left=$((end_before - suspended))
echo "bg job: ran ${ran} s in the background, ${left} s left when suspended (limit 60 s)"
[ "$left" -ge $((60 - ran + 10)) ] ||
	fail "2: JobId=$bg had $left s left when suspended after $ran s: its end time did not move on in the background"
wait_for -t 20 "2: bg job resumed after its wait bound" state_is "$bg" RUNNING
resumed=$(log_epoch "availability: resumed JobId=$bg on $node after waiting")
[ -n "$resumed" ] || fail "2: no resumption after the wait bound logged"
sinfo -h -n "$node" -o %T | grep -E 'drain' >/dev/null ||
	fail "2: $node is no longer drained: the resumption was not the bound's"
end_after=$(epoch_of "$bg" EndTime)
echo "bg job: resumed at +$((resumed - suspended)) s, $((end_after - resumed)) s left (Slurm's resume alone: $((60 - ran)) s)"
[ $((end_after - resumed)) -ge $((left - 2)) ] ||
	fail "2: JobId=$bg resumed with $((end_after - resumed)) s left, want the $left s it had when suspended"
sleep 4
state_is "$bg" RUNNING || fail "2: JobId=$bg is $(squeue -h -j "$bg" -o %T) after its wait bound: suspended again?"
[ "$(grep -c "availability: suspended JobId=$bg " "$CLUSTER_DIR/slurmctld.log")" = 1 ] ||
	fail "2: JobId=$bg was suspended more than once"
scontrol update nodename="$node" state=resume
: >"$CLUSTER_DIR/go-$fg"
: >"$CLUSTER_DIR/go-$bg"
wait_jobs_done 90 "$fg" "$bg"
assert_completed_once "$j1" "$fg" "$bg"

stop_cluster
finish
