#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_measured.sh - sched/amcbf decides on CPU needs nobody
# declared: a foreground job that says nothing (dfrs_cpu_need=1 would fill
# its node) computes at duty cycle 0.3; once dfrs-nodeagent has reported
# that in the node's Extra, a job starts in the background beside it.  When
# it ends, the history learns its need and keeps it in StateSaveLocation
# across a slurmctld restart; a later job of the same user and name that
# declares nothing, with no agent left to measure it, is predicted small
# enough that a background job starts beside it.  Neither background start
# is possible at dfrs_cpu_need=1 (the first job's tier would leave no room).
# Then a malformed report gives one log line and loses no job.  The need
# each job had before its first report is in StateSaveLocation/
# dfrs-need-first whatever the log level (slurmctld runs at info here), and
# contribs/live-needs, which the demo runs, reads it: the first job had
# dfrs_cpu_need, the later one a prediction.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster measured --nodes 1 --cpus 1 --port 18460 --node-agent --debug info \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 \
	--part-extra OverSubscribe=FORCE:2 ||
	{ fail "cluster did not start"; finish; }
work=$CLUSTER_DIR/work
mkdir -p "$work"
history=$CLUSTER_DIR/state/dfrs-need-history
has_measure() { scontrol show node n1 | grep "Extra=.*dfrs:measured=.*\b$1:" >/dev/null; }
bg_start() { log_has "amcbf: started JobId=$1 on n1 in the bg tier"; }

fg=$(submit -J duty --wrap "exec '$build/dfrs-work' --seconds 300 --need 0.3 --quantum 0.25 --dir '$work'")
wait_for "job $fg running" state_is "$fg" RUNNING
wait_for -t 20 "job $fg: its measured need in n1's Extra" has_measure "$fg"
bg=$(submit -t 2 --comment=dfrs:need=0.4 --wrap 'sleep 30')
wait_for -t 20 "job $bg starts in the background beside job $fg, whose measured need leaves room" \
	bg_start "$bg"
scontrol show node n1 | grep -o 'dfrs:measured=[^ ]*'

scancel "$fg" "$bg"
wait_jobs_done 30 "$fg" "$bg"
wait_for -t 40 "the history learned job $fg's need" \
	grep -q '^j 0 1 .* duty$' "$history"
cat "$history"
"$cluster" restart-controller --dir "$CLUSTER_DIR" || fail "slurmctld restart failed"
wait_for "the history read back at start" log_has "CPU-need history: 2 keys from"
node_idle() { [ "$(sinfo -h -n n1 -o %T)" = idle ]; }
wait_for -t 30 "n1 registered again after the restart" node_idle

# no agent from here on: a job named like the measured one, declaring
# nothing, runs in the foreground at its predicted need (the measured
# one's plus 0.02), which leaves room for a background job
agent_pid=$(cat "$CLUSTER_DIR/nodeagent-n1.pid")
kill "$agent_pid"
# it runs until the test writes go-JOBID, once it has checked it running
rm -f "$CLUSTER_DIR"/go-*	# an earlier run's
again=$(submit -J duty --wrap "until [ -e '$CLUSTER_DIR'/go-\$SLURM_JOB_ID ]; do sleep 0.5; done")
wait_for "job $again running" state_is "$again" RUNNING
bg2=$(submit -t 2 --comment=dfrs:need=0.4 --wrap 'sleep 30')
wait_for -t 20 "job $bg2 starts in the background beside job $again (no declared need, predicted from job $fg)" \
	bg_start "$bg2"

# garbage in the node's Extra: one log line for the job, dfrs_cpu_need
# for it, and no job lost (the background one may go back to the queue:
# a foreground job at need 1 leaves it no room)
scontrol update nodename=n1 extra="dfrs:measured=$again:lots@1" ||
	fail "cannot set Extra"
wait_for -t 40 "job $again: the malformed report is said in one log line" \
	log_has "JobId=$again: measured CPU need not used, dfrs_cpu_need=1 instead: node n1's Extra"
[ "$(grep -c "JobId=$again: measured CPU need not used" "$CLUSTER_DIR/slurmctld.log")" = 1 ] ||
	fail "job $again: the malformed report said more than once"
for j in "$again" "$bg2"; do
	[ -n "$(squeue -h -j "$j" -t PD,R -o %i)" ] || fail "job $j lost after the malformed report"
done
# job $again completes (live-needs counts completed jobs)
scancel "$bg2"
: >"$CLUSTER_DIR/go-$again"
wait_jobs_done 60 "$again" "$bg2"

first=$CLUSTER_DIR/state/dfrs-need-first
cat "$first"
grep -q "^$fg default 1$" "$first" ||
	fail "job $fg: dfrs_cpu_need=1 before its first report not recorded in $first"
grep -q "^$again predicted 0\.[0-9]*$" "$first" ||
	fail "job $again: its prediction not recorded in $first"
# the demo's report on this run: one job of name duty at duty cycle 0.3
needs=$CLUSTER_DIR/live-needs
rm -rf "$needs"
mkdir -p "$needs"
ln -s "$CLUSTER_DIR" "$needs/amcbf-measured"
echo "duty 0 300 1 5 0.30" > "$needs/jobs.txt"
echo '{"results": [{"policy": "slurm-amcbf-measured", "predicted": true}]}' > "$needs/report.json"
out=$("$top/contribs/live-needs" --dir "$needs" --report "$needs/report.json") ||
	fail "contribs/live-needs failed"
echo "$out"
grep -q "a prediction from the jobs measured before it (1 jobs), dfrs_cpu_need (1 jobs)" <<<"$out" ||
	fail "live-needs: not 1 job predicted and 1 at dfrs_cpu_need before their first report"
grep -q "predicted - true duty cycle: mean [-+][0-9.]*, .* for [01] of 1$" <<<"$out" ||
	fail "live-needs: no predicted - true duty cycle"
finish
