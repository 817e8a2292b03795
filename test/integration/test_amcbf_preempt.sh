#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_preempt.sh - sched/amcbf owns job starts and preempts by the
# consolidation algorithms of Liu et al. 2013, on Slurm's select/linear,
# through Slurm's requeue (the part that differs between releases: it runs
# on every release contribs/check tests; the modes and parameters that
# decide whom to preempt are test_amcbf_preempt_modes.sh's, on 22.05):
#  CMBF  a big job that arrived earlier takes the nodes of a job that arrived
#        later (requeued: "migration"); the later job restarts afterwards.
#        amcbf_reserve=0: any job that fits starts, as the paper (the
#        default 1 would hold J3 back behind the head's reservation).
# Every job ends COMPLETED exactly once in jobcomp (the preempted job also
# has a PREEMPTED record for the run it lost), and the statistics line at
# shutdown counts the starts and the preemption.
set -uo pipefail
. "$(dirname "$0")/lib.sh"


start_cluster cmbf --nodes 4 --port 18200 --select select/linear \
	--sched-params amcbf_mode=cmbf,amcbf_reserve=0 || { fail "cluster did not start"; finish; }
preempt_scenario cmbf
log_has "cmbf: preempted JobId=$j3 on n\[3-4\] (requeued, preemption 1 of at most 3)" ||
	fail "cmbf: J3 was not preempted for J2"
grep -q "^JobId=$j3 .*JobState=PREEMPTED" "$CLUSTER_DIR/jobcomp.txt" ||
	fail "cmbf: no PREEMPTED record for J3"
[ "$(restarts "$j3")" = 1 ] || fail "cmbf: J3 restarted $(restarts "$j3") times, want 1"
# J2 ran before J3 finished: it did not wait for the later job
s2=$(grep "^JobId=$j2 " "$CLUSTER_DIR/jobcomp.txt" | sed -n 's/.* StartTime=\([^ ]*\).*/\1/p')
e3=$(grep "^JobId=$j3 .*COMPLETED" "$CLUSTER_DIR/jobcomp.txt" | sed -n 's/.* EndTime=\([^ ]*\).*/\1/p')
[ "$(date -d "$s2" +%s)" -lt "$(date -d "$e3" +%s)" ] || fail "cmbf: J2 started after J3 ended"
stop_cluster
# four starts: J1, J3, J2, and J3 again after its preemption
log_has 'stats: [0-9]* cycles (mean .* ms, max .* ms), 4 started, 1 preempted' ||
	fail "cmbf: statistics line missing or wrong at shutdown"

finish
