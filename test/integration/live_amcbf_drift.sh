#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# live_amcbf_drift.sh - sched/amcbf's drift guard
# (src/common/amcbf/stretch_drift.h, amcbf_drift.c) on a live cluster, by
# hand: NOT in contribs/check's lists (its name is not test_*.sh), about
# 6 minutes.  Run it under the cluster lock:
#   flock /tmp/dfrs-cluster.lock bash test/integration/live_amcbf_drift.sh
# amcbf_mode=dfrs (GreedyPM) on two nodes of 4096 MB, the guard's window
# shortened to 120 s (buckets of 2 s, judged after 60 s), factor 2, the
# CPU time of a job counted as at least 5 s:
#  A1, A2 (3000 MB, need 1) run alone, one a node, for 100 s: run stretch
#     1; no drift line.
#  B1..B8 (400 MB, need 1) arrive after 75 s and share the nodes at yields
#     of 1/4 (on 2026-11-28 GreedyPM requeued A1 and A2 for them, which
#     ran again once the Bs had ended): the run stretch (time since first
#     start over virtual time) climbs to 3 or 4, over twice the window's:
#     ONE drift line, naming the mode, however many cycles it lasts.
#  C1, C2 (3000 MB) run alone once the Bs have ended: stretch 1, under
#     halfway back: ONE "drift over" line; at shutdown, the stats line
#     counts 1 drift.
# Sleep jobs: the yields are select/dfrs's model (published in
# SystemComment), not CPU the jobs use; the guard reads the plugin's
# virtual times, which follow those yields.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster drift --nodes 2 --port 18900 \
	--sched-params amcbf_mode=dfrs,amcbf_dfrs_policy=greedypm,amcbf_interval=5,amcbf_drift_window=120,amcbf_drift_factor=2,amcbf_drift_min_work=5 \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 \
	--part-extra OverSubscribe=FORCE:8 || { fail "cluster did not start"; finish; }
log_has "amcbf_drift_window=120 amcbf_drift_factor=2 amcbf_drift_min_work=5" ||
	fail "drift parameters not logged"

a1=$(submit -N1 --mem=3000 --comment=dfrs:need=1 --wrap 'sleep 100')
a2=$(submit -N1 --mem=3000 --comment=dfrs:need=1 --wrap 'sleep 100')
wait_for -t 30 "A1 running" state_is "$a1" RUNNING
wait_for -t 30 "A2 running" state_is "$a2" RUNNING
sleep 75
log_has "drift: " && fail "a drift line while every job ran alone"

bs=()
for _ in 1 2 3 4 5 6 7 8; do
	bs+=("$(submit -N1 --mem=400 --comment=dfrs:need=1 --wrap 'sleep 150')")
done
wait_for -t 150 "the drift line" log_has "drift: the "
grep "drift: the " "$CLUSTER_DIR/slurmctld.log" | sed 's/^/  /'
log_has "drift: the .*amcbf_mode=dfrs (amcbf_dfrs_policy=greedypm)" ||
	fail "the drift line does not name the mode"
wait_jobs_done 600 "$a1" "$a2" "${bs[@]}"
n=$(grep -c "drift: the " "$CLUSTER_DIR/slurmctld.log")
[ "$n" = 1 ] || fail "$n drift lines, not one"
log_has "drift over" && fail "the drift ended while the Bs shared the nodes"

c1=$(submit -N1 --mem=3000 --comment=dfrs:need=1 --wrap 'sleep 40')
c2=$(submit -N1 --mem=3000 --comment=dfrs:need=1 --wrap 'sleep 40')
wait_for -t 60 "the drift's end" log_has "drift over"
grep "drift over" "$CLUSTER_DIR/slurmctld.log" | sed 's/^/  /'
wait_jobs_done 120 "$c1" "$c2"
n=$(grep -c "drift over" "$CLUSTER_DIR/slurmctld.log")
[ "$n" = 1 ] || fail "$n 'drift over' lines, not one"
stop_cluster
stats=$(grep "log_stats: stats: " "$CLUSTER_DIR/slurmctld.log" | tail -1)
grep -q "; 1 drifts$" <<<"$stats" ||
	fail "the stats line at shutdown does not count 1 drift: $stats"
finish
