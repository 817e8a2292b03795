#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_metrics.sh - sched/amcbf's own metrics for node_exporter's
# textfile collector (amcbf_metrics_file, amcbf_metrics_interval=3) on a
# two-node cluster that runs six two-node jobs (some preempted or not: the
# counts are whatever the statistics line says):
#  - every version of the file seen while the jobs run and after parses
#    with a strict parser of Prometheus' text format (below: HELP and TYPE
#    before each family's samples, names, labels, values, no duplicate
#    series, counters named _total);
#  - it is rewritten (its modification time moves) and never sooner than 3
#    s after the last write;
#  - after shutdown its counters are the statistics line's (cycles,
#    started, preempted, mean and max cycle), and `dfrs status --format
#    openmetrics` prints the same samples;
#  - the node agents' reports: n1's Extra holds a fresh report, n2's a
#    malformed one (what dfrs-nodeagent writes, set with scontrol), and
#    the file counts one of each; the availability model's per-node series
#    (amcbf_avail_slot=5) name both nodes.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

interval=3
dir=$build/test-clusters/$test_name-metrics
file=$dir/slurm-dfrs.prom
start_cluster metrics --nodes 2 --port 19980 \
	--sched-params "amcbf_metrics_file=$file,amcbf_metrics_interval=$interval,amcbf_avail_slot=5" ||
	{ fail "cluster did not start"; finish; }
[ "$CLUSTER_DIR" = "$dir" ] || fail "cluster directory $CLUSTER_DIR, not $dir"

# prom_check FILE: a strict check of Prometheus' text exposition format
# (0.0.4), with python3's standard library only; prints the sample count
prom_check() {
	python3 - "$1" <<'EOF'
import math, re, sys
name_re = re.compile(r'[a-zA-Z_:][a-zA-Z0-9_:]*$')
label_re = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"')
def bad(n, why):
    sys.exit("%s:%d: %s" % (sys.argv[1], n, why))
help_, type_, seen, samples = {}, {}, set(), 0
family = None
text = open(sys.argv[1]).read()
if not text.endswith("\n"):
    bad(0, "no newline at the end")
for n, line in enumerate(text.split("\n")[:-1], 1):
    if line == "":
        continue
    if line.startswith("#"):
        parts = line.split(" ", 3)
        if len(parts) < 3 or parts[1] not in ("HELP", "TYPE"):
            continue            # a plain comment
        kind, name = parts[1], parts[2]
        if not name_re.match(name):
            bad(n, "bad metric name %r" % name)
        if kind == "HELP":
            if name in help_:
                bad(n, "second HELP for " + name)
            help_[name] = parts[3] if len(parts) > 3 else ""
        else:
            if name in type_:
                bad(n, "second TYPE for " + name)
            if len(parts) != 4 or parts[3] not in ("counter", "gauge", "histogram", "summary", "untyped"):
                bad(n, "bad TYPE line")
            if name in (k for k, _ in seen):
                bad(n, "TYPE for %s after its samples" % name)
            type_[name] = parts[3]
            if parts[3] == "counter" and not name.endswith("_total"):
                bad(n, "counter %s not named _total" % name)
        family = name
        continue
    m = re.match(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)( -?[0-9]+)?$', line)
    if not m:
        bad(n, "not a sample line: %r" % line)
    name, labels, value = m.group(1), m.group(2) or "", m.group(3)
    if name != family or name not in type_:
        bad(n, "sample %s outside its family (HELP/TYPE first)" % name)
    pairs = ()
    if labels:
        body = labels[1:-1]
        pairs = tuple(label_re.findall(body))
        rebuilt = ",".join('%s="%s"' % p for p in pairs)
        if rebuilt != body.rstrip(","):
            bad(n, "bad labels %r" % labels)
        if len({k for k, _ in pairs}) != len(pairs):
            bad(n, "a label twice")
    try:
        v = float(value)
    except ValueError:
        bad(n, "value %r is not a number" % value)
    if type_[name] == "counter" and (v < 0 or math.isnan(v)):
        bad(n, "counter %s is %s" % (name, value))
    key = (name, tuple(sorted(pairs)))
    if key in seen:
        bad(n, "series %s%s twice" % (name, labels))
    seen.add(key)
    samples += 1
for name in help_:
    if name not in type_:
        bad(0, "HELP without TYPE for " + name)
if samples == 0:
    bad(0, "no samples")
print(samples)
EOF
}
# sample NAME[{LABELS}] FILE: the value of that series
sample() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

# a fresh report on n1 (dfrs_need_stale=180 by default), a malformed one
# on n2: the plugin looks at them every 10 s
scontrol update nodename=n1 extra="dfrs:measured=999:0.5@$(date +%s)" ||
	fail "cannot set n1's Extra"
scontrol update nodename=n2 extra="dfrs:measured=999:lots@1" ||
	fail "cannot set n2's Extra"
ids=()
for ((i = 0; i < 6; i++)); do
	ids+=("$(submit -N2 --wrap 'sleep 1')")
done
# watch the file while the jobs run and a while after: each new version
# parses, and comes at least $interval s after the one before
declare -a mtimes=()
last=""
end=$((SECONDS + 25))
while [ $SECONDS -lt $end ]; do
	m=$(stat -c %.3Y "$file" 2>/dev/null) || { sleep 0.2; continue; }
	if [ "$m" != "$last" ]; then
		cp "$file" "$dir/seen.prom"
		prom_check "$dir/seen.prom" >/dev/null ||
			fail "the metrics file at $m does not parse"
		mtimes+=("$m")
		last=$m
	fi
	sleep 0.2
done
wait_jobs_done 60 "${ids[@]}"
echo "  ${#mtimes[@]} versions of the file seen in 25 s (amcbf_metrics_interval=$interval)"
[ "${#mtimes[@]}" -ge 4 ] || fail "the file was written ${#mtimes[@]} times in 25 s, want at least 4 (every $interval s)"
for ((i = 1; i < ${#mtimes[@]}; i++)); do
	# modification times to the ms; the writes are a whole-second check apart
	awk -v a="${mtimes[i - 1]}" -v b="${mtimes[i]}" -v n="$interval" \
		'BEGIN { exit !(b - a >= n - 0.05) }' ||
		fail "rewritten $(awk -v a="${mtimes[i - 1]}" -v b="${mtimes[i]}" 'BEGIN { print b - a }') s after the write before, under amcbf_metrics_interval=$interval"
done

# at shutdown: the file and the statistics line
stop_cluster
n=$(prom_check "$file") || fail "the final metrics file does not parse"
echo "  final file: $n samples"
line=$(grep -o 'stats: [0-9]* cycles (mean [0-9.]* ms, max [0-9.]* ms), [0-9]* started, [0-9]* preempted' \
	"$CLUSTER_DIR/slurmctld.log" | tail -1)
echo "  slurmctld.log: $line"
re='^stats: ([0-9]+) cycles \(mean ([0-9.]+) ms, max ([0-9.]+) ms\), ([0-9]+) started, ([0-9]+) preempted$'
if [[ $line =~ $re ]]; then
	cycles=${BASH_REMATCH[1]} mean=${BASH_REMATCH[2]} max=${BASH_REMATCH[3]}
	started=${BASH_REMATCH[4]} preempted=${BASH_REMATCH[5]}
	[ "$(sample slurm_dfrs_cycles_total "$file")" = "$cycles" ] ||
		fail "slurm_dfrs_cycles_total $(sample slurm_dfrs_cycles_total "$file"), log $cycles"
	[ "$(sample slurm_dfrs_jobs_started_total "$file")" = "$started" ] ||
		fail "slurm_dfrs_jobs_started_total $(sample slurm_dfrs_jobs_started_total "$file"), log $started"
	[ "$started" -ge 6 ] || fail "log: $started started, want at least the 6 jobs"
	p=$(awk '$1 ~ /^slurm_dfrs_preemptions_total\{/ { s += $2 } END { print s + 0 }' "$file")
	[ "$p" = "$preempted" ] || fail "slurm_dfrs_preemptions_total sums to $p, log $preempted"
	# the log has ms to two decimals
	awk -v f="$(sample slurm_dfrs_cycle_max_seconds "$file")" -v l="$max" \
		'BEGIN { d = f * 1000 - l; exit !(d < 0.006 && d > -0.006) }' ||
		fail "slurm_dfrs_cycle_max_seconds $(sample slurm_dfrs_cycle_max_seconds "$file"), log max $max ms"
	awk -v f="$(sample slurm_dfrs_cycle_seconds_total "$file")" -v c="$cycles" -v l="$mean" \
		'BEGIN { d = f * 1000 / c - l; exit !(d < 0.006 && d > -0.006) }' ||
		fail "slurm_dfrs_cycle_seconds_total $(sample slurm_dfrs_cycle_seconds_total "$file") over $cycles cycles, log mean $mean ms"
else
	fail "no statistics line in slurmctld.log"
fi
for want in 'slurm_dfrs_node_agent_reports{state="fresh"} 1' \
	'slurm_dfrs_node_agent_reports{state="malformed"} 1' \
	'slurm_dfrs_node_agent_reports{state="none"} 0'; do
	grep -Fx "$want" "$file" >/dev/null || fail "no line '$want' in the final file"
done
# ON or OFF as the machine's load makes them: a series for each node
for n in n1 n2; do
	grep "^slurm_dfrs_node_on{node=\"$n\"} [01]\$" "$file" >/dev/null ||
		fail "no slurm_dfrs_node_on series for $n in the final file"
done
grep '^slurm_dfrs_time_limit_added_seconds_total{basis="measured"} [0-9]*$' "$file" >/dev/null ||
	fail "no time added to end times in the final file"
# dfrs status --format openmetrics: the same series and values (but the
# time each was written)
"$build/dfrs" status --state-dir "$CLUSTER_DIR/state" --format openmetrics >"$dir/status.prom" ||
	fail "dfrs status --format openmetrics failed"
prom_check "$dir/status.prom" >/dev/null || fail "dfrs status --format openmetrics does not parse"
diff <(grep -v '^slurm_dfrs_stats_updated_timestamp_seconds ' "$file") \
	<(grep -v '^slurm_dfrs_stats_updated_timestamp_seconds ' "$dir/status.prom") >"$dir/status.diff" ||
	fail "dfrs status --format openmetrics differs from the file: $(head -c 400 "$dir/status.diff")"
finish
