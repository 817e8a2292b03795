#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_policy_resv.sh - an advanced reservation with members and
# outsiders, with slurmdbd (3 nodes, CMBF, which requeues victims):
# reservation R holds n1 and n2 for account dfrs; account outside has none.
#  - an outsider B starts on the unreserved node n3 at once (sched/amcbf
#    used to pick an idle reserved node, which select_nodes() refused every
#    cycle: the job stalled with three idle nodes);
#  - an outsider O, submitted before the members and waiting for n3, never
#    preempts a member for a reserved node (CMBF would, its victims being
#    the later jobs; Slurm would then refuse O's start there);
#  - the members M1, M2 (--reservation=R) start on R's nodes beside the
#    waiting O (its reservation of n3 does not hold them back);
#  - O starts on n3 once B is cancelled, while the members still run;
#  - R2 holds n3 from an hour later: the outsiders (1 minute limits) may
#    use n3 until then, and a member of R2 waits with reason Reservation;
#  - an outsider may not submit into R; no start is refused, nobody is
#    requeued, and sacct records the members in R and the outsiders outside.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# slurmctld knows root's association in account outside
outside_known() { sbatch --test-only -A outside -t 1 --wrap true >/dev/null 2>&1; }
# no line of slurmctld's log says a start the engine decided was refused
no_refused_start() { ! log_has "could not start JobId="; }
nodes_of() { sacct_of "$1" NodeList; }

start_cluster resv --accounting --nodes 3 --port 18760 --select select/linear \
	--sched-params amcbf_mode=cmbf ||
	{ fail "cluster did not start"; finish; }
c=$(sacctmgr -n -P show cluster format=cluster | head -1)
if ! sacctmgr -i add account outside cluster="$c" >/dev/null ||
   ! sacctmgr -i add user root account=outside cluster="$c" >/dev/null; then
	fail "sacctmgr could not add account outside"
fi
wait_for "slurmctld knows account outside" outside_known
scontrol create reservation ReservationName=R Nodes=n[1-2] StartTime=now \
	Duration=10 Accounts=dfrs >/dev/null ||
	{ fail "scontrol create reservation failed"; finish; }
# sacct names a job's reservation only if the reservation began strictly
# before the job started, in whole seconds (the join of Slurm's
# as_mysql_jobacct_process.c: t3.time_start < t1.time_start); members
# start within 0.1 s of their submission, so they are submitted from the
# next second on
r_made=$(date +%s)
while [ "$(date +%s)" -le "$r_made" ]; do sleep 0.1; done

# R2 holds n3 an hour from now: outsiders of a minute may use n3 until
# then, and a member of R2 waits for it with reason Reservation
scontrol create reservation ReservationName=R2 Nodes=n3 StartTime=now+60minutes \
	Duration=10 Accounts=dfrs >/dev/null ||
	{ fail "scontrol create reservation R2 failed"; finish; }
w=$(submit -N1 -A dfrs --reservation=R2 -t 1 --wrap true)
wait_for "member W of R2 pending with reason Reservation" reason_is "$w" Reservation

# an outsider may not use R at all
if sbatch --parsable -o /dev/null -A outside --reservation=R -t 1 --wrap true \
	>/dev/null 2>&1; then
	fail "account outside could submit into reservation R"
fi

b=$(submit -N1 -A outside -t 1 --wrap 'sleep 60')
wait_for "outsider B running (three idle nodes, one unreserved)" state_is "$b" RUNNING
o=$(submit -N1 -A outside -t 1 --wrap 'sleep 1')
# the members run until the test writes go-JOBID, once O is done
rm -f "$CLUSTER_DIR"/go-*	# an earlier run's
gated="until [ -e '$CLUSTER_DIR'/go-\$SLURM_JOB_ID ]; do sleep 0.5; done"
m1=$(submit -N1 -A dfrs --reservation=R -t 2 --wrap "$gated")
m2=$(submit -N1 -A dfrs --reservation=R -t 2 --wrap "$gated")
wait_for "member M1 running in R" state_is "$m1" RUNNING
wait_for "member M2 running in R" state_is "$m2" RUNNING
state_is "$o" PENDING || fail "outsider O: $(squeue -h -j "$o" -o %T) while B runs, want PENDING"
scancel "$b"
wait_jobs_done 20 "$b" "$o"
for m in "$m1" "$m2"; do
	state_is "$m" RUNNING || fail "member $m: $(squeue -h -j "$m" -o %T) when O was done, want RUNNING"
	: >"$CLUSTER_DIR/go-$m"
done
wait_jobs_done 30 "$m1" "$m2"

for j in "$b" "$o"; do
	[ "$(nodes_of "$j")" = n3 ] || fail "outsider $j ran on $(nodes_of "$j"), want n3"
	[ -z "$(sacct_of "$j" Reservation)" ] || fail "outsider $j: sacct Reservation=$(sacct_of "$j" Reservation)"
done
for m in "$m1" "$m2"; do
	case $(nodes_of "$m") in n1|n2) ;; *) fail "member $m ran on $(nodes_of "$m"), want n1 or n2" ;; esac
	[ "$(sacct_of "$m" Reservation)" = R ] || fail "member $m: sacct Reservation='$(sacct_of "$m" Reservation)', want R"
done
case $(sacct_of "$b" State) in CANCELLED*) ;; *) fail "job $b: sacct State=$(sacct_of "$b" State), want CANCELLED" ;; esac
for j in "$o" "$m1" "$m2"; do
	st=$(sacct_of "$j" State)
	[ "$st" = COMPLETED ] || fail "job $j: sacct State=$st, want COMPLETED"
done
assert_completed_once "$o" "$m1" "$m2"
no_refused_start || fail "a start the engine decided was refused: $(grep -m1 'could not start JobId=' "$CLUSTER_DIR/slurmctld.log")"
reason_is "$w" Reservation || fail "member W of R2: $(squeue -h -j "$w" -o '%T %r'), want PENDING Reservation"
preempt_tried && fail "a job was preempted (or a preemption tried)"
scancel "$w"
wait_jobs_done 20 "$w"
scontrol delete reservation=R >/dev/null 2>&1
scontrol delete reservation=R2 >/dev/null 2>&1
finish
