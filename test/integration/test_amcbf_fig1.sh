#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_fig1.sh - Liu et al.'s Fig. 1 reproduced live in slurmctld under
# CMBF and AMBF (sched/amcbf on select/linear), the schedule
# test/unit/test_sched_consolidation.c checks in the simulator.
#
# Six nodes, J1..J6 all queued at time 0, J_i(size, length) with one time
# unit = 1 s: J1(1,20) J2(2,5) J3(6,5) J4(4,5) J5(2,15) J6(1,10).
#  CMBF  J1, J2, J5, J6 start at 0 (J3 and J4 do not fit); when J2 ends J5
#        is preempted (requeued) and J4 starts on J2's and J5's nodes; J5
#        restarts later; J3 (6 nodes) runs last, once J1 has ended.
#  AMBF  the same start; J4 is not the head of the queue (J3 is), so it may
#        not preempt: it waits for idle nodes (J5's end); nothing is
#        preempted at all; J3 runs last.
# What differs live from the figure, and how the test keeps the figure:
#  - the figure has no reservation for the head: both runs set
#    amcbf_reserve=0 (the default 1 would keep J5 and J6 out of J3's way).
#  - a preemption is a requeue: the job restarts from scratch, and only
#    cred_expire+1 = 6 s after it has left its nodes (which takes a few
#    seconds).  The restarted J5 would still be running when J1 ends, and
#    J3, which arrived before J5, would preempt it a second time; the CMBF
#    run uses amcbf_max_preempt=1 so that J5 is preempted once, as in the
#    figure, and J3 runs last.
#  - a start waits for the next cycle (1 s): J1 gets 8 s more than its 20
#    units so that it still ends last, as drawn, and not just before J4
#    (AMBF: the head J3 would then preempt J4) or before J5 restarts (CMBF).
# Timing is coarse: the test asserts on the plugin's log lines, on jobcomp
# records and on orderings, not on exact seconds.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# decisions: the plugin's start and preemption lines, in order, as
# "started ID NODES" / "preempted ID NODES"
decisions() {
	sed -n "s/.* $1: \(started\|preempted\) JobId=\([0-9]*\) on \([^ ]*\) .*/\1 \2 \3/p" \
		"$CLUSTER_DIR/slurmctld.log"
}
# line_of WHAT ID [N]: line number (in decisions) of the Nth "WHAT ID" (default 1st)
line_of() {
	decisions "$mode" | grep -n "^$1 $2 " | sed -n "${3:-1}p" | cut -d: -f1
}
# before T1 T2: both known and T1 <= T2 (seconds)
before() { [ -n "$1" ] && [ -n "$2" ] && [ "$1" -le "$2" ]; }

# submit J1..J6 held, in this order, then release them at once: all queued
# at "time 0" in arrival order J1..J6 (sched/amcbf leaves held jobs alone)
submit_fig1() {
	local spec words
	ids=()
	for spec in "1 28" "2 5" "6 5" "4 5" "2 15" "1 10"; do
		read -r -a words <<<"$spec"
		set -- "${words[@]}"
		ids+=("$(submit --hold -N"$1" --wrap "sleep $2")")
	done
	j1=${ids[0]} j2=${ids[1]} j3=${ids[2]} j4=${ids[3]} j5=${ids[4]} j6=${ids[5]}
	if [ "${#ids[@]}" != 6 ] || [ -z "$j6" ]; then fail "$mode: submission failed"; return 1; fi
	sleep 2
	log_has "started JobId=" && fail "$mode: a held job was started"
	scontrol release "$(IFS=,; echo "${ids[*]}")" || fail "$mode: scontrol release failed"
}

# the first four starts are J1, J2, J5, J6 (time 0), before any other decision
check_time0() {
	local first
	first=$(decisions "$mode" | head -4 | awk '$1 == "started" {print $2}' | sort -n | xargs)
	[ "$first" = "$(printf '%s\n' "$j1" "$j2" "$j5" "$j6" | sort -n | xargs)" ] ||
		fail "$mode: first decisions are not the starts of J1 J2 J5 J6 ($j1 $j2 $j5 $j6): $(decisions "$mode" | head -4 | xargs)"
}

mode=cmbf
start_cluster cmbf --nodes 6 --port 19000 --select select/linear \
	--sched-params amcbf_mode=cmbf,amcbf_max_preempt=1,amcbf_reserve=0 ||
	{ fail "cluster did not start"; finish; }
if submit_fig1; then
	wait_jobs_done 120 "${ids[@]}"
	assert_completed_once "${ids[@]}"
	echo "cmbf decisions:"; decisions cmbf | sed 's/^/  /'
	check_time0
	# exactly one preemption: J5, once
	npre=$(decisions cmbf | grep -c '^preempted' || true)
	[ "$npre" = 1 ] || fail "cmbf: $npre preemptions, want 1 (J5): $(decisions cmbf | grep '^preempted' | xargs)"
	log_has "cmbf: preempted JobId=$j5 on [^ ]* (requeued, preemption 1 of at most 1)" ||
		fail "cmbf: J5 (JobId=$j5) was not preempted"
	for id in "$j1" "$j2" "$j3" "$j4" "$j6"; do
		others=$(jobcomp_state "$id" | grep -vx COMPLETED)
		[ -z "$others" ] ||
			fail "cmbf: JobId=$id has a record other than COMPLETED: $(jobcomp_state "$id" | xargs)"
	done
	[ "$(jobcomp_state "$j5" | xargs)" = "PREEMPTED COMPLETED" ] ||
		fail "cmbf: J5's jobcomp records are '$(jobcomp_state "$j5" | xargs)', want 'PREEMPTED COMPLETED'"
	[ "$(restarts "$j5")" = 1 ] || fail "cmbf: J5 restarted $(restarts "$j5") times, want 1"
	# J5 was preempted when J2 ended, while J6 still ran: J4 did not wait
	# for idle nodes
	pre5=$(grep "cmbf: preempted JobId=$j5 " "$CLUSTER_DIR/slurmctld.log" | head -1 |
		sed 's/^\[\([^].]*\).*/\1/')
	pre5=$(date -d "$pre5" +%s 2>/dev/null || true)
	before "$(jc_time "$j2" COMPLETED EndTime)" "$pre5" ||
		fail "cmbf: J5 preempted before J2 ended"
	e6=$(jc_time "$j6" COMPLETED EndTime)
	if [ -z "$pre5" ] || [ -z "$e6" ] || ! [ "$pre5" -lt "$e6" ]; then
		fail "cmbf: J5 not preempted while J6 still ran (preempted at ${pre5:-never}, J6 ended at $e6)"
	fi
	# J4 starts after J5's preemption, before J5's restart, on 4 nodes
	# that include J5's
	l_pre=$(line_of preempted "$j5") l_s4=$(line_of started "$j4") l_s5b=$(line_of started "$j5" 2)
	before "$l_pre" "$l_s4" || fail "cmbf: J4 did not start after J5's preemption"
	before "$l_s4" "$l_s5b" || fail "cmbf: J5 restarted before J4 started (or never)"
	n4=$(decisions cmbf | awk -v id="$j4" '$1 == "started" && $2 == id {print $3}')
	n5=$(decisions cmbf | awk -v id="$j5" '$1 == "preempted" && $2 == id {print $3; exit}')
	[ "$(scontrol show hostnames "$n4" | wc -l)" = 4 ] || fail "cmbf: J4 ran on '$n4', not 4 nodes"
	if [ -z "$n5" ] || [ -n "$(comm -23 <(scontrol show hostnames "$n5" | sort) \
		<(scontrol show hostnames "$n4" | sort))" ]; then
		fail "cmbf: J4 ($n4) did not take the nodes J5 was preempted from ($n5)"
	fi
	before "$(jc_time "$j4" COMPLETED StartTime)" "$(jc_time "$j1" COMPLETED EndTime)" ||
		fail "cmbf: J4 waited for J1's end"
	# J3 runs last: after J1 ended and after J5's second run ended
	s3=$(jc_time "$j3" COMPLETED StartTime)
	before "$(jc_time "$j1" COMPLETED EndTime)" "$s3" || fail "cmbf: J3 started before J1 ended"
	before "$(jc_time "$j5" COMPLETED EndTime)" "$s3" || fail "cmbf: J3 started before J5 ended"
	[ "$(decisions cmbf | tail -1)" = "started $j3 n[1-6]" ] ||
		fail "cmbf: the last decision is '$(decisions cmbf | tail -1)', want 'started $j3 n[1-6]'"
fi
stop_cluster

mode=ambf
start_cluster ambf --nodes 6 --port 19000 --select select/linear \
	--sched-params amcbf_mode=ambf,amcbf_reserve=0 || { fail "cluster did not start"; finish; }
if submit_fig1; then
	wait_jobs_done 120 "${ids[@]}"
	assert_completed_once "${ids[@]}"
	echo "ambf decisions:"; decisions ambf | sed 's/^/  /'
	check_time0
	log_has "preempted JobId=" && fail "ambf: a job was preempted: $(grep 'preempted JobId=' "$CLUSTER_DIR/slurmctld.log" | head -3)"
	grep -q "JobState=PREEMPTED" "$CLUSTER_DIR/jobcomp.txt" && fail "ambf: a PREEMPTED record in jobcomp"
	for id in "${ids[@]}"; do
		[ "$(restarts "$id")" = 0 ] || fail "ambf: JobId=$id restarted $(restarts "$id") times"
	done
	# J4 waits for idle nodes: it starts only after J5 and J6 have ended
	s4=$(jc_time "$j4" COMPLETED StartTime)
	before "$(jc_time "$j5" COMPLETED EndTime)" "$s4" || fail "ambf: J4 started before J5 ended"
	before "$(jc_time "$j6" COMPLETED EndTime)" "$s4" || fail "ambf: J4 started before J6 ended"
	before "$(line_of started "$j5")" "$(line_of started "$j4")" || fail "ambf: J4 started before J5"
	# J3 runs last, once J1 and J4 have ended
	s3=$(jc_time "$j3" COMPLETED StartTime)
	before "$(jc_time "$j1" COMPLETED EndTime)" "$s3" || fail "ambf: J3 started before J1 ended"
	before "$(jc_time "$j4" COMPLETED EndTime)" "$s3" || fail "ambf: J3 started before J4 ended"
	[ "$(decisions ambf | tail -1)" = "started $j3 n[1-6]" ] ||
		fail "ambf: the last decision is '$(decisions ambf | tail -1)', want 'started $j3 n[1-6]'"
fi
stop_cluster
finish
