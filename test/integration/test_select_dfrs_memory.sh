#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_select_dfrs_memory.sh - over a random workload of 36 jobs sharing 4
# nodes under select/dfrs, memory is never oversubscribed at any instant
# (checked from the start and end times Slurm records in jobcomp), nodes are
# actually shared, and every job ends COMPLETED exactly once.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

nodes=4 node_mb=4096
start_cluster memory --nodes $nodes --mem $node_mb --port 18000 --sched sched/builtin \
	--conf SelectTypeParameters=CR_Memory --conf DefMemPerNode=1024 \
	--part-extra OverSubscribe=FORCE:8 ||
	{ fail "cluster did not start"; finish; }

RANDOM=20261122		# a fixed workload
declare -A mem_of
ids=()
for ((i = 0; i < 36; i++)); do
	n=$((1 + RANDOM % 2)) mb=$((256 * (2 + RANDOM % 11))) s=$((1 + RANDOM % 4))
	need=0.$((2 + RANDOM % 8))
	id=$(submit -N "$n" --mem="$mb" --comment="dfrs:need=$need" --wrap "sleep $s")
	[ -n "$id" ] || { fail "sbatch failed"; continue; }
	ids+=("$id")
	mem_of[$id]=$mb
done
wait_jobs_done 240 "${ids[@]}"
assert_completed_once "${ids[@]}"

# events per node from jobcomp: +mem at start, -mem at end (ends first at ties)
python3 - "$CLUSTER_DIR/jobcomp.txt" "$node_mb" "$(declare -p mem_of)" <<'PY' || fail "memory check failed"
import re, sys, subprocess, datetime
path, cap, decl = sys.argv[1], int(sys.argv[2]), sys.argv[3]
mem = {int(k): int(v) for k, v in re.findall(r'\[(\d+)\]="?(\d+)"?', decl)}
def expand(nodelist):
    out = []
    for part in re.findall(r'n\[[^\]]*\]|n\d+', nodelist):
        if part.startswith('n['):
            for r in part[2:-1].split(','):
                a, _, b = r.partition('-')
                out += ['n%d' % k for k in range(int(a), int(b or a) + 1)]
        else:
            out.append(part)
    return out
def ts(s):
    return datetime.datetime.fromisoformat(s).timestamp()
events, shared = [], False
for line in open(path):
    f = dict(kv.split('=', 1) for kv in line.split() if '=' in kv)
    jid = int(f['JobId'])
    if jid not in mem:
        continue
    for node in expand(f['NodeList']):
        events.append((ts(f['StartTime']), 1, node, mem[jid], jid))
        events.append((ts(f['EndTime']), 0, node, -mem[jid], jid))
events.sort()
used, running, worst, bad = {}, {}, 0, 0
for t, kind, node, delta, jid in events:
    used[node] = used.get(node, 0) + delta
    running.setdefault(node, set())
    (running[node].add if kind else running[node].discard)(jid)
    if len(running[node]) > 1:
        shared = True
    worst = max(worst, used[node])
    if used[node] > cap:
        bad += 1
        print("node %s at %d: %d MB used by jobs %s > %d" % (node, t, used[node], sorted(running[node]), cap))
print("  %d jobs, peak memory on a node %d of %d MB, nodes shared: %s" % (len(mem), worst, cap, shared))
sys.exit(1 if bad or not shared else 0)
PY
stop_cluster
finish
