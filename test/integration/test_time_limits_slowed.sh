#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_time_limits_slowed.sh - no job slowed by sharing ends TIMEOUT: its
# end time follows the CPU it received.  The jobs compute (dfrs-work), a
# fixed amount of work that takes 60 % (tiers) or 55 % (pm, pmr) of their
# 1-minute limit alone, Slurm's shortest (a limit is whole minutes), so
# that each slowed job outlives its nominal limit (by about 6 s), on
# nodes that are CPU slices of 0.1 core with the node agents measuring
# and enforcing; three clusters run side by side:
#   tiers  amcbf_mode=amcbf (select/cons_tres): on each node a foreground
#          job (need 0.75) and a background one beside it, which gets
#          what the foreground leaves; n2 is drained meanwhile
#          (amcbf_avail_drain_acts=1): its jobs are suspended, then
#          resumed in place at the wait bound
#   pm     amcbf_mode=dfrs, greedypm (select/dfrs): four jobs that declare
#          no need on two nodes, two to a node: the needs the agents
#          measure fall to what the sharing leaves each job, and the
#          yields the policy believes rise to about 1 with them
#   pmr    the same under greedypmr
# Asserts: every job completes exactly once (jobcomp), none ends TIMEOUT,
# FAILED or NODE_FAIL, nor loses a run to a requeue; each slowed job's end time moved (its AdminComment's
# sched/amcbf:time_added=) by the time it was denied: never short of it
# by more than 10 % (+2 s: amcbf_interval, paid ahead at the last charge
# and never settled), which is what would cost the job its work, and over
# it by at most 25 % + 2 s (in the fresh-clone check, under its background
# Slurm builds, a tiers job denied 26.0 s got 31 s: the agents' windows
# and dfrs-work's own count of its CPU differ by seconds); denied is its
# wall time, less its suspension, less its CPU time over the CPU it would
# have used alone (what dfrs-work printed).  Its length is the slowed
# jobs' run, a little over the limit: the pm and pmr jobs run 2 x 33 s,
# the tiers background jobs 36 s + 0.75 x 36 s and n2's a 3 s suspension
# more: 68 s on 22.05, 74 s on 26.05.3.  There the tiers cluster's
# foreground jobs are slowed too (their end times follow; not diagnosed
# further), so that n2's may end first: AMCBF then promotes n1's
# background job, the head of the queue, to n2's foreground and evicts
# n2's background job for it; sched/amcbf does not move a running job,
# so it drops both (sched_decisions_drop_moves), and no job loses its
# run.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

slice=0.1
base=$build/test-clusters/$test_name
names=(tiers pm pmr)
# seconds of work alone: the tiers background job gets 0.25 of a CPU
# beside its foreground job's 0.75, a DFRS job half of one
declare -A work=([tiers]=36 [pm]=33 [pmr]=33)
declare -A port=([tiers]=19800 [pm]=19820 [pmr]=19840)
# the tiers on the site's select/cons_tres, DFRS through select/dfrs (which
# delegates to it), as burst_mode_opts runs them
declare -A select=([tiers]=select/cons_tres [pm]=select/dfrs [pmr]=select/dfrs)
declare -A params=(
	[tiers]="amcbf_mode=amcbf,amcbf_interval=2,amcbf_avail_policy=wait,amcbf_avail_slot=1,amcbf_avail_drain_acts=1,amcbf_avail_wait_factor=0.03"
	[pm]="amcbf_mode=dfrs,amcbf_dfrs_policy=greedypm,amcbf_interval=2"
	[pmr]="amcbf_mode=dfrs,amcbf_dfrs_policy=greedypmr,amcbf_interval=2")

# on NAME COMMAND...: COMMAND against cluster NAME
on() {
	local n=$1
	shift
	CLUSTER_DIR=$base-$n SLURM_CONF=$base-$n/slurm.conf "$@"
}
stop_all() {
	local n
	for n in "${names[@]}"; do "$cluster" stop --dir "$base-$n" >/dev/null 2>&1 & done
	wait
}
trap stop_all EXIT

mkdir -p "$build/test-clusters"
t0=$SECONDS
pids=()
for n in "${names[@]}"; do
	"$cluster" start --dir "$base-$n" --nodes 2 --cpus 1 --mem 1024 \
		--port "${port[$n]}" --cpu-slice $slice --node-agent \
		--sched sched/amcbf --select "${select[$n]}" \
		--conf SelectTypeParameters=CR_Core_Memory \
		--part-extra OverSubscribe=FORCE:2 --sched-params "${params[$n]}" \
		>"$build/test-clusters/$test_name-$n.start" 2>&1 &
	pids+=($!)
done
started=1
for p in "${pids[@]}"; do wait "$p" || started=0; done
if [ "$started" = 0 ]; then
	for n in "${names[@]}"; do tail -n 3 "$build/test-clusters/$test_name-$n.start"; done
	fail "a cluster did not start"
	finish
fi
echo "three clusters up in $((SECONDS - t0)) s"

# job NAME NODE NEED [SBATCH-ARGS...]: a dfrs-work job of work[NAME] s alone at
# CPU need NEED (declared when under 1), output in the cluster's work/
job() {
	local n=$1 node=$2 need=$3 decl=()
	shift 3
	mkdir -p "$base-$n/work"
	[ "$need" = 1 ] || decl=(--comment="dfrs:need=$need")
	on "$n" submit -t 1 --mem=100 ${node:+-w "$node"} "${decl[@]}" "$@" \
		--wrap "exec '$build/dfrs-work' --seconds ${work[$n]} --need $need --speed $slice --dir '$base-$n/work' >'$base-$n/work/'\$SLURM_JOB_ID.out"
}
log_epoch() {	# NAME PATTERN: epoch seconds of the first log line matching
	local t
	t=$(grep -m1 -- "$2" "$base-$1/slurmctld.log" | sed -n 's/^\[\([^].]*\).*/\1/p')
	[ -n "$t" ] && date -d "$t" +%s
}

declare -A jobs
# pm, pmr: four jobs that declare no need
for n in pm pmr; do jobs[$n]="$(job $n '' 1) $(job $n '' 1) $(job $n '' 1) $(job $n '' 1)"; done
# tiers: a foreground job on each node, then a background one beside it
jobs[tiers]="$(job tiers n1 0.75) $(job tiers n2 0.75)"
for j in ${jobs[tiers]}; do on tiers wait_for "tiers: job $j running" state_is "$j" RUNNING; done
jobs[tiers]+=" $(job tiers n1 1) $(job tiers n2 1)"
read -r _ _ bg1 bg2 <<<"${jobs[tiers]}"
for j in "$bg1" "$bg2"; do
	on tiers wait_for "tiers: job $j running" state_is "$j" RUNNING
	on tiers log_has "amcbf: started JobId=$j on n[12] in the bg tier" ||
		fail "tiers: job $j did not start in the background tier"
done
for n in pm pmr; do
	for j in ${jobs[$n]}; do on "$n" wait_for "$n: job $j running" state_is "$j" RUNNING; done
done

# tiers: n2 drained for a while: its jobs wait suspended, then resume
sleep 12
on tiers scontrol update nodename=n2 state=drain reason=slowed
on tiers wait_for "tiers: background job $bg2 suspended for its drained node" state_is "$bg2" SUSPENDED
on tiers wait_for -t 40 "tiers: job $bg2 resumed at its wait bound" state_is "$bg2" RUNNING
on tiers scontrol update nodename=n2 state=resume

for n in "${names[@]}"; do
	# shellcheck disable=SC2086  # the ids, one word each
	on "$n" wait_jobs_done 150 ${jobs[$n]}
done
echo "jobs done at $((SECONDS - t0)) s"

# added NAME JOB: seconds sched/amcbf added to the job's end time
added() {
	on "$1" scontrol show job "$2" |
		sed -n 's/.*sched\/amcbf:time_added=\([0-9]*\)s.*/\1/p'
}
# suspended NAME JOB: seconds the job spent suspended by the availability policy
suspended() {
	local s r
	s=$(log_epoch "$1" "availability: suspended JobId=$2 ")
	r=$(log_epoch "$1" "availability: resumed JobId=$2 ")
	[ -n "$s" ] && [ -n "$r" ] && echo $((r - s)) || echo 0
}
slowed=0
for n in "${names[@]}"; do
	# shellcheck disable=SC2086  # the ids, one word each
	on "$n" assert_completed_once ${jobs[$n]}
	for j in ${jobs[$n]}; do
		# no run lost either: every job fits beside the others
		bad=$(on "$n" jobcomp_state "$j" | grep -xE 'TIMEOUT|FAILED|NODE_FAIL|PREEMPTED|REQUEUED' | head -1)
		[ -z "$bad" ] || fail "$n: job $j ended $bad"
		out=$base-$n/work/$j.out
		read -r cpu wall < <(sed -n 's/.* cpu \([0-9.]*\) wall \([0-9.]*\)$/\1 \2/p' "$out" 2>/dev/null)
		if [ -z "${cpu:-}" ]; then
			fail "$n: job $j: no dfrs-work result in $out"
			continue
		fi
		need=$(on "$n" scontrol show job "$j" | sed -n 's/.*Comment=dfrs:need=\([0-9.]*\).*/\1/p')
		sus=$(suspended "$n" "$j")
		add=$(added "$n" "$j")
		read -r denied verdict < <(awk -v c="$cpu" -v w="$wall" -v s="$sus" \
			-v d="${need:-1}" -v f=$slice -v a="${add:-0}" 'BEGIN {
			den = w - s - c / (d * f)
			ok = den < 5 ? (a <= 5) : (a >= 0.9 * den - 2 && a <= 1.25 * den + 2)
			printf "%.1f %s\n", den, ok ? "ok" : "off" }')
		echo "$n: job $j: wall ${wall} s, suspended ${sus} s, cpu ${cpu} s at need ${need:-1}: denied ${denied} s, added ${add:-none} s ($(on "$n" scontrol show job "$j" | grep -o 'sched/amcbf:time_added=[^ ]*'))"
		awk -v d="$denied" 'BEGIN { exit !(d >= 5) }' && slowed=$((slowed + 1))
		[ "$verdict" = ok ] ||
			fail "$n: job $j was denied ${denied} s of CPU, its end time moved ${add:-0} s (want at least 90 % - 2 s, at most 125 % + 2 s)"
	done
done
# the background jobs and the four jobs of each DFRS cluster were slowed
[ "$slowed" -ge 10 ] || fail "$slowed jobs slowed by 5 s or more, want 10 (2 tiers, 4 pm, 4 pmr)"
echo "wall time $((SECONDS - t0)) s"
stop_all
finish
