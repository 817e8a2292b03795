#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_workload.sh - a random workload through sched/amcbf live in
# slurmctld, under each mode: cmbf and ambf (select/linear), cmcbf and amcbf
# (select/dfrs, a partition with OverSubscribe=FORCE:2, so that the
# background tier exists).  The same 60 jobs each time (fixed RANDOM seed):
# 1..4 nodes of 8, `sleep` 1..2 s, CPU need (dfrs:need) 0.3..1, arriving over
# about 20 s.  Every job must be accounted for:
#  - none left pending or running, every node idle again;
#  - exactly one COMPLETED jobcomp record each; any other record is a run
#    lost to preemption (PREEMPTED, REQUEUED);
#  - preempted at most amcbf_max_preempt (3) times: jobcomp records, the
#    plugin's "preempted" lines and Slurm's restart count agree;
#  - every run in jobcomp was started by the plugin (one "started" line per
#    record: nothing started behind its back).
# In the cmbf and the amcbf runs slurmctld is restarted half way through the
# submissions (jobs running, pending, being requeued): no job is lost.
# The four modes run at the same time, each on its own cluster (ports
# 19100-19108, 19120-19128, 19140-19148, 19160-19168), to keep the file
# within about a minute.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

njobs=60
max_preempt=3
RANDOM=20041
sizes=() lens=() needs=() gaps=()
for ((i = 0; i < njobs; i++)); do
	sizes+=($((RANDOM % 4 + 1)))
	lens+=($((RANDOM % 2 + 1)))
	needs+=("$(echo 0.3 0.5 0.7 1 | cut -d' ' -f$((RANDOM % 4 + 1)))")
	gaps+=("0.$((RANDOM % 5))")
done

# run_mode MODE PORT RESTART [start options...]: one whole run, in a subshell;
# its exit status is its number of failures
run_mode() {
	local mode=$1 port=$2 restart=$3 i id ids=() known lost
	shift 3
	start_cluster "$mode" --nodes 8 --port "$port" \
		--sched-params "amcbf_mode=$mode" "$@" ||
		{ fail "$mode: cluster did not start"; return; }
	log="$CLUSTER_DIR/slurmctld.log"
	grep -q "amcbf_mode=$mode " "$log" || fail "$mode: not in $mode mode"
	grep -q "running as" "$log" && fail "$mode: $(grep -o 'amcbf_mode=.*running as.*' "$log")"
	local t0=$SECONDS
	for ((i = 0; i < njobs; i++)); do
		if [ "$restart" = yes ] && [ "$i" = $((njobs / 2)) ]; then
			echo "$mode: restarting slurmctld after $i submissions"
			"$cluster" restart-controller --dir "$CLUSTER_DIR" ||
				fail "$mode: slurmctld restart failed"
			known=$(squeue -h -t all -o %i | sort -n)
			lost=$(comm -23 <(printf '%s\n' "${ids[@]}" | sort -n) <(echo "$known"))
			[ -z "$lost" ] || fail "$mode: jobs lost across the restart: $(xargs <<<"$lost")"
		fi
		id=$(submit -N"${sizes[i]}" --comment="dfrs:need=${needs[i]}" \
			--wrap "sleep ${lens[i]}")
		[ -n "$id" ] || { fail "$mode: submission $i failed"; continue; }
		ids+=("$id")
		sleep "${gaps[i]}"
	done
	[ "${#ids[@]}" = "$njobs" ] || fail "$mode: ${#ids[@]} of $njobs jobs submitted"
	wait_jobs_done 300 "${ids[@]}"
	echo "$mode: $njobs jobs done in $((SECONDS - t0)) s"

	[ -z "$(squeue -h -o %i)" ] || fail "$mode: jobs left in the queue: $(squeue -h -o '%i:%T' | xargs)"
	local busy
	busy=$(sinfo -h -N -o '%N %T' | awk '$2 != "idle"' | sort -u | xargs)
	[ -z "$busy" ] || fail "$mode: nodes not idle at the end: $busy"
	assert_completed_once "${ids[@]}"
	local injc
	injc=$(sed -n 's/^JobId=\([0-9]*\) .*/\1/p' "$CLUSTER_DIR/jobcomp.txt" | sort -un | wc -l)
	[ "$injc" = "$njobs" ] || fail "$mode: $injc distinct jobs in jobcomp, want $njobs"

	# per job: runs lost (jobcomp), preemptions logged, restarts, starts logged
	local jobs_txt
	jobs_txt=$(scontrol show job -o)
	local lostruns npre nrest nstart nrec maxp=0 tot_pre=0
	for id in "${ids[@]}"; do
		nrec=$(jobcomp_state "$id" | grep -c . || true)
		lostruns=$(jobcomp_state "$id" | grep -cvx COMPLETED || true)
		npre=$(grep -c "$mode: preempted JobId=$id " "$log" || true)
		nstart=$(grep -c "$mode: started JobId=$id " "$log" || true)
		nrest=$(grep "^JobId=$id " <<<"$jobs_txt" | sed -n 's/.* Restarts=\([0-9]*\) .*/\1/p')
		[ "$lostruns" -le "$max_preempt" ] ||
			fail "$mode: JobId=$id lost $lostruns runs: $(jobcomp_state "$id" | xargs) (amcbf_max_preempt=$max_preempt)"
		[ "$npre" = "$lostruns" ] ||
			fail "$mode: JobId=$id: $npre preemptions logged, $lostruns runs lost in jobcomp"
		[ "${nrest:-x}" = "$lostruns" ] ||
			fail "$mode: JobId=$id: Restarts=${nrest:-?}, $lostruns runs lost in jobcomp"
		[ "$nstart" = "$nrec" ] ||
			fail "$mode: JobId=$id: $nstart starts logged, $nrec runs in jobcomp"
		[ "$lostruns" -gt "$maxp" ] && maxp=$lostruns
		tot_pre=$((tot_pre + lostruns))
	done
	grep -q "preempted JobId=[0-9]* on .* (requeued, preemption \([4-9]\|[1-9][0-9]\) of" "$log" &&
		fail "$mode: a preemption beyond $max_preempt: $(grep -m1 'preemption \([4-9]\|[1-9][0-9]\) of' "$log")"
	echo "$mode: $tot_pre preemptions in all, at most $maxp for one job;" \
		"$(grep -c "$mode: started JobId=.* in the bg tier" "$log") bg starts," \
		"$(grep -c "$mode: JobId=.* swapped to the" "$log") tier swaps"
	stop_cluster
	grep 'stats: ' "$log" | sed "s/^.*stats:/$mode: stats:/"
	if [ "$failures" != 0 ]; then
		echo "$mode: log tail ($log):"
		tail -n 20 "$log" | sed 's/^/  /'
	fi
}

linear=(--select select/linear)
dfrs=(--select select/dfrs --conf SelectTypeParameters=CR_Memory
	--conf DefMemPerNode=1024 --part-extra OverSubscribe=FORCE:2)
out=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait; rm -rf "$out"' EXIT
t0=$SECONDS
for run in "cmbf 19100 yes linear" "ambf 19120 no linear" \
	   "cmcbf 19140 no dfrs" "amcbf 19160 yes dfrs"; do
	read -r -a words <<<"$run"
	set -- "${words[@]}"
	if [ "$4" = linear ]; then opts=("${linear[@]}"); else opts=("${dfrs[@]}"); fi
	( run_mode "$1" "$2" "$3" "${opts[@]}"; exit "$failures" ) >"$out/$1" 2>&1 &
	pids+=($!)
done
# each run's exit status counts: one killed by a shell error prints no FAIL
rcs=()
for p in "${pids[@]}"; do wait "$p"; rcs+=($?); done
pids=()
i=0
for mode in cmbf ambf cmcbf amcbf; do
	cat "$out/$mode"
	n=$(grep -c "^FAIL: " "$out/$mode" || true)
	failures=$((failures + n))
	[ "${rcs[$i]}" = 0 ] || [ "$n" != 0 ] ||
		fail "$mode: its run exited with status ${rcs[$i]} but printed no FAIL line"
	i=$((i + 1))
done
echo "all modes done in $((SECONDS - t0)) s"
finish
