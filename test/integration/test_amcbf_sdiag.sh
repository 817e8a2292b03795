#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_sdiag.sh - sched/amcbf's cycles in Slurm's own scheduler
# statistics, where sites watch sched/backfill's: sdiag's "Backfilling
# stats", sdiag --json (Slurm 23.02 and later) and, on 26.05 with
# MetricsType=metrics/openmetrics, slurmctld's /metrics/scheduler.  Six
# two-node jobs on two nodes run one after another (each waits pending
# through cycles); once they are done and the cycle count has settled,
# every view shows the same non-zero counts, and they are the plugin's
# own: the statistics line slurmctld.log gets at shutdown (cycles, jobs
# started, longest and mean cycle).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

port=19970
njobs=6
conf=()
# slurmctld's /metrics/scheduler (26.05, MetricsType=metrics/openmetrics):
# slurmctld answers HTTP only through an http_parser plugin, which Slurm's
# configure builds only where it finds libhttp_parser (contribs/setup
# installs it and asks for it)
openmetrics=false
if slurm_at_least 26.05; then
	openmetrics=true
	conf=(--conf MetricsType=metrics/openmetrics)
	ls "$DFRS_SLURM_PREFIX"/lib/slurm/http_parser_*.so >/dev/null 2>&1 ||
		fail "$DFRS_SLURM_PREFIX/lib/slurm has no http_parser plugin: slurmctld cannot answer /metrics (Slurm configured without libhttp_parser: contribs/setup --slurm 26.05 builds it with)"
fi
# amcbf_interval=3600: no periodic cycle, only those the jobs cause
start_cluster sdiag --nodes 2 --port "$port" --sched-params amcbf_interval=3600 \
	"${conf[@]}" || { fail "cluster did not start"; finish; }
t0=$(date +%s)

ids=()
for ((i = 0; i < njobs; i++)); do
	ids+=("$(submit -N2 --wrap 'sleep 1')")
done
wait_jobs_done 120 "${ids[@]}"
assert_completed_once "${ids[@]}"

# sdiag_field LABEL: the number after "LABEL:" in sdiag's backfill block
sdiag_field() {
	sed -n '/^Backfilling stats/,/^$/p' <<<"$text" |
		sed -n "s/^[[:space:]]*$1:[[:space:]]*\([0-9][0-9]*\).*/\1/p" | head -1
}
# the cycle count settles once the last completion has been looked at
prev=""
for ((i = 0; i < 40; i++)); do
	text=$(sdiag) || { fail "sdiag failed"; finish; }
	cycles=$(sdiag_field "Total cycles")
	[ -n "$cycles" ] && [ "$cycles" = "$prev" ] && break
	prev=$cycles
	sleep 2
done
echo "  sdiag's backfill block:"
sed -n '/^Backfilling stats/,/^$/p' <<<"$text" | sed 's/^/    /'
backfilled=$(sdiag_field "Total backfilled jobs (since last slurm start)")
last_bf=$(sdiag_field "Total backfilled jobs (since last stats cycle start)")
max_us=$(sdiag_field "Max cycle")
mean_us=$(sdiag_field "Mean cycle")
when=$(sed -n 's/^[[:space:]]*Last cycle when:.*(\([0-9]*\))$/\1/p' <<<"$text")
[ "${cycles:-0}" -gt 0 ] || fail "sdiag: Total cycles ${cycles:-missing}, want > 0"
[ "$backfilled" = "$njobs" ] || fail "sdiag: $backfilled backfilled jobs, want $njobs (every job started by sched/amcbf)"
[ "$last_bf" = "$njobs" ] || fail "sdiag: $last_bf backfilled jobs since the stats cycle start, want $njobs"
[ "${max_us:-0}" -gt 0 ] || fail "sdiag: Max cycle ${max_us:-missing}, want > 0"
if [ -z "$when" ] || [ "$when" -lt "$t0" ] || [ "$when" -gt "$(date +%s)" ]; then
	fail "sdiag: Last cycle when ${when:-missing}, want during the test (from $t0)"
fi
grep -q "WARNING: data obtained in the middle" <<<"$text" &&
	echo "  (sdiag ran during a cycle: bf_active was 1)"

# sdiag --json: the same counters, and the depth and queue sums, which the
# text gives only as integer means
if slurm_at_least 23.02; then
	json=$(sdiag --json) || fail "sdiag --json failed"
	got=$(python3 -c '
import json, sys
s = json.load(sys.stdin)["statistics"]
print(s["bf_cycle_counter"], s["bf_backfilled_jobs"], s["bf_cycle_max"],
      s["bf_queue_len_sum"], s["bf_depth_sum"], s["bf_depth_try_sum"],
      s["bf_exit"]["end_job_queue"] + s["bf_exit"]["bf_max_time"])
' <<<"$json") || fail "sdiag --json: no statistics object with the backfill fields"
	read -r j_cycles j_bf j_max j_qsum j_dsum j_tsum j_exits <<<"$got"
	echo "  sdiag --json: $j_cycles cycles, $j_bf backfilled, max $j_max us, queue sum $j_qsum, depth sum $j_dsum (tried $j_tsum), exits $j_exits"
	[ "$j_cycles" = "$cycles" ] || fail "sdiag --json: bf_cycle_counter $j_cycles, text $cycles"
	[ "$j_bf" = "$njobs" ] || fail "sdiag --json: bf_backfilled_jobs $j_bf, want $njobs"
	[ "$j_max" = "$max_us" ] || fail "sdiag --json: bf_cycle_max $j_max, text $max_us"
	# each job was read pending in at least the cycle that started it
	for v in "queue_len_sum $j_qsum" "depth_sum $j_dsum" "depth_try_sum $j_tsum"; do
		[ "${v#* }" -ge "$njobs" ] || fail "sdiag --json: bf_${v% *} ${v#* }, want >= $njobs"
	done
	[ "$j_exits" = "$cycles" ] || fail "sdiag --json: bf_exit counts $j_exits cycles, want $cycles"
fi

# Slurm's own OpenMetrics endpoint (26.05)
if $openmetrics; then
	m=$(curl -sf "http://127.0.0.1:$((port + ${DFRS_PORT_SHIFT:-0}))/metrics/scheduler") ||
		fail "curl /metrics/scheduler failed"
	metric() { sed -n "s/^$1 \([0-9][0-9]*\)\$/\1/p" <<<"$m" | head -1; }
	echo "  /metrics/scheduler: slurm_bf_cycle_cnt $(metric slurm_bf_cycle_cnt), slurm_backfilled_jobs $(metric slurm_backfilled_jobs), slurm_bf_cycle_max $(metric slurm_bf_cycle_max)"
	[ "$(metric slurm_bf_cycle_cnt)" = "$cycles" ] ||
		fail "/metrics/scheduler: slurm_bf_cycle_cnt '$(metric slurm_bf_cycle_cnt)', sdiag $cycles"
	[ "$(metric slurm_backfilled_jobs)" = "$njobs" ] ||
		fail "/metrics/scheduler: slurm_backfilled_jobs '$(metric slurm_backfilled_jobs)', want $njobs"
	[ "$(metric slurm_bf_cycle_max)" = "$max_us" ] ||
		fail "/metrics/scheduler: slurm_bf_cycle_max '$(metric slurm_bf_cycle_max)', sdiag $max_us"
else
	echo "  (/metrics/scheduler: Slurm ${DFRS_SLURM_VERSION:-22.05} has none; 25.11 and later)"
fi

# the plugin's own statistics line, at shutdown
stop_cluster
line=$(grep -o 'stats: [0-9]* cycles (mean [0-9.]* ms, max [0-9.]* ms), [0-9]* started' \
	"$CLUSTER_DIR/slurmctld.log" | tail -1)
echo "  slurmctld.log: $line"
if [[ $line =~ ^stats:\ ([0-9]+)\ cycles\ \(mean\ ([0-9.]+)\ ms,\ max\ ([0-9.]+)\ ms\),\ ([0-9]+)\ started$ ]]; then
	l_cycles=${BASH_REMATCH[1]} l_mean=${BASH_REMATCH[2]} l_max=${BASH_REMATCH[3]}
	l_started=${BASH_REMATCH[4]}
	[ "$l_cycles" = "$cycles" ] || fail "log: $l_cycles cycles, sdiag $cycles"
	[ "$l_started" = "$backfilled" ] || fail "log: $l_started started, sdiag $backfilled backfilled"
	# the log has ms to two decimals, sdiag whole microseconds
	awk -v l="$l_max" -v s="$max_us" 'BEGIN { d = l * 1000 - s; exit !(d <= 5.5 && d >= -5.5) }' ||
		fail "log: max $l_max ms, sdiag Max cycle $max_us us"
	awk -v l="$l_mean" -v s="$mean_us" 'BEGIN { d = l * 1000 - s; exit !(d <= 6.5 && d >= -6.5) }' ||
		fail "log: mean $l_mean ms, sdiag Mean cycle $mean_us us"
else
	fail "no statistics line in slurmctld.log"
fi
finish
