#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_live_compare.sh - contribs/live-compare end to end: a short excerpt
# (the first 18 jobs of test/data/live-excerpt.swf, those submitted in its
# first minute, their submit and run times halved (a run of 1 s stays 1 s;
# each need, CPU time over run time, kept), their sizes read as CPUs on 4
# nodes of 2 CPUs: about 50 s a run) replayed live on a site's select/cons_tres (--cpus-per-node, as
# contribs/demo runs it) under sched/backfill, under sched/amcbf with the
# needs declared, and under sched/amcbf with no need declared, the node
# agents measuring (--need declared,measured), side by side (ports 18800,
# 18900 and 19200).  Asserts only what does not depend on timing: every job
# completed in every run (live-compare fails otherwise, naming the missing
# jobs), the JSON report has every key of dfrs sim's schema, with the live
# rows beside their predictions, and the undeclared run decided on measured
# needs: the agents reported them in the nodes' Extra, and sched/amcbf's
# need history learned them (StateSaveLocation/dfrs-need-history), which
# it does only from a need it used as measured.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d /tmp/live-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
njobs=18
# SWF fields 2 (submit), 4 (run time) and 6 (CPU time) halved
awk -v n=$njobs '/^;/ { sub(/^; Max(Jobs|Records): [0-9]+$/, "; Max" substr($2, 4) " " n); print; next }
	++k <= n { rt = int(($4 + 1) / 2); if (rt < 1) rt = 1
		if ($6 > 0) $6 = int($6 * rt / $4 + 0.5)
		$2 = int($2 / 2); $4 = rt; print }' \
	"$top/test/data/live-excerpt.swf" >"$work/first-minute.swf"
t0=$SECONDS
if ! "$top/contribs/live-compare" --excerpt "$work/first-minute.swf" \
	--nodes 4 --cpus-per-node 2 --port 18800 --dir "$work" --format json --need declared,measured \
	>"$work/report.json" 2>"$work/stderr"; then
	fail "live-compare failed:"
	sed 's/^/  /' "$work/stderr"
	finish
fi
echo "live comparison done in $((SECONDS - t0)) s"

python3 - "$work/report.json" "$njobs" <<'PY' || fail "JSON report: see above"
import json, sys
r = json.load(open(sys.argv[1]))
top = ["trace", "jobs", "skipped", "nodes", "load", "seed",
       "migration_cost", "easy_estimates", "results"]
row = ["policy", "mean_response", "mean_wait", "mean_bsld", "max_bsld",
       "mean_stretch", "max_stretch", "utilization", "migrations_per_job",
       "preemptions_per_job", "makespan", "wall_seconds", "events_per_second"]
bad = [k for k in top if k not in r]
pol = [x.get("policy") for x in r.get("results", [])]
if pol != ["easy", "slurm-backfill", "conservative", "amcbf", "slurm-amcbf",
           "amcbf-measured", "slurm-amcbf-measured"]:
    bad.append("policies %s" % pol)
for x in r.get("results", []):
    bad += ["%s.%s" % (x.get("policy"), k) for k in row if k not in x]
if r.get("jobs") != int(sys.argv[2]):
    bad.append("jobs %s, want %s" % (r.get("jobs"), sys.argv[2]))
fid = [(f["live"], f["predicted"]) for f in r.get("fidelity", [])]
if fid != [("slurm-backfill", "easy"), ("slurm-amcbf", "amcbf"),
           ("slurm-amcbf-measured", "amcbf-measured")]:
    bad.append("fidelity %s" % fid)
if bad:
    print("missing or wrong: " + ", ".join(bad))
    sys.exit(1)
PY
for run in backfill amcbf amcbf-measured; do
	grep -qx 'SelectType=select/cons_tres' "$work/$run/slurm.conf" ||
		fail "$run: not on select/cons_tres ($(grep '^SelectType=' "$work/$run/slurm.conf"))"
	n=$(grep -c ' JobState=COMPLETED ' "$work/$run/jobcomp.txt" || true)
	[ "$n" = "$njobs" ] || fail "$run: $n COMPLETED jobcomp records, want $njobs"
done
m=$work/amcbf-measured
grep -q 'measured CPU needs: Extra: dfrs:measured=' "$m"/nodeagent-n*.log ||
	fail "amcbf-measured: no agent reported a measured need"
learned=$(grep -c '^j ' "$m/state/dfrs-need-history" 2>/dev/null || true)
[ "${learned:-0}" -ge 1 ] ||
	fail "amcbf-measured: sched/amcbf learned no measured need (state/dfrs-need-history)"
echo "amcbf-measured: $learned jobs' measured needs learned"
if ! grep -q '^live against live' "$work/needs.txt" ||
   ! grep -q 'slurm-amcbf-measured  / slurm-amcbf ' "$work/needs.txt" ||
   ! grep -q 'jobs measured; first report' "$work/needs.txt"; then
	fail "needs.txt lacks the undeclared run's lines:"
	sed 's/^/  /' "$work/needs.txt"
fi
finish
