#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_guardrails_cli.sh - the guardrails end to end through the dfrs
# program: dfrs params --check fails on a line that leaves sched/amcbf
# passive and warns (exit 0) on stray spaces, keys given twice and name
# lists split by ','; dfrs sim takes policy names in any case and suggests
# one on a typo, takes the slurm.conf names of --param keys and
# dfrs_cpu_need, and warns once on a guessed machine size, on job-array
# and heterogeneous job ids in a sacct history, and on a CPU usage the
# deployed plugin would not assume.  Run by make check from the build
# directory.
set -u
. "$(dirname "$0")/cli_expect.sh"

good=defer,sched_interval=-1
# passive: exit 1, one error naming what is missing
expect 1 "error: SchedulerParameters: sched_interval=60, not -1: slurmctld's main scheduler would start jobs on its own and sched/amcbf would stay passive" -- params --check 'defer,sched_interval=60,amcbf_mode=amcbf'
expect 1 "no 'defer' item and no sched_interval=-1" -- params --check 'amcbf_mode=cmbf'
expect 1 "amcbf_util_treshold: unknown parameter (did you mean amcbf_util_threshold?)" -- params --check "$good,amcbf_util_treshold=0.5"
expect 1 "amcbf_mode=CBMF: must be one of amcbf, cmbf, ambf, cmcbf, dfrs (did you mean cmbf?)" -- params --check "$good,amcbf_mode=CBMF"
# warnings: exit 0, the line in force on stdout
expect 0 "warning: SchedulerParameters item 3 ' amcbf_mode=cmbf': stray space; sched/amcbf ignores the key" -- params --check "$good, amcbf_mode=cmbf"
expect 0 "amcbf_mode=amcbf " -- params --check "$good, amcbf_mode=cmbf"
expect 0 "warning: SchedulerParameters amcbf_partitions: ',' ends the list, so 'batch' is not in it (and no option of Slurm's); separate names with ':' (amcbf_partitions=shared:batch)" -- params --check "$good,amcbf_partitions=shared,batch"
expect 0 "amcbf_partitions=shared " -- params --check "$good,amcbf_partitions=shared,batch"
expect 0 "warning: SchedulerParameters amcbf_interval given 2 times (items 3 and 4): sched/amcbf uses the last, 'amcbf_interval=20'" -- params --check "$good,amcbf_interval=10,amcbf_interval=20"
# a clean line: nothing on stderr
"$DFRS" params --check "$good,amcbf_mode=cmbf,amcbf_partitions=a:b" >"$tmp/out" 2>"$tmp/err" ||
	fail "params --check of a clean line: exit $?"
[ ! -s "$tmp/err" ] || fail "params --check of a clean line: $(cat "$tmp/err")"

swf=$(dirname "$0")/../data/small.swf
expect 0 "easy" -- sim --trace "$swf" --policy EASY,Amcbf
expect 2 "dfrs sim: --policy: unknown policy 'amcfb' (did you mean amcbf?)" -- sim --trace "$swf" --policy easy,amcfb
expect 2 "unknown policy 'backfill' (dfrs sim --help lists them)" -- sim --trace "$swf" --policy backfill
expect 0 "amcbf_util_threshold=0.5" -- sim --trace "$swf" --policy easy,amcbf --param amcbf_util_threshold=0.5,0.9
expect 2 "parameter amcbf_min_idle_cpu=2 is out of range 0..1" -- sim --trace "$swf" --param amcbf_min_idle_cpu=2
expect 0 "CPU usage: the trace's for 1 jobs, dfrs_cpu_need=1 (what sched/amcbf assumes) for 3" -- sim --trace "$swf" --policy easy --param dfrs_cpu_need=1
expect 2 "dfrs_cpu_need=0 is out of range 0.01..1" -- sim --trace "$swf" --param dfrs_cpu_need=0
expect 2 "dfrs_cpu_need takes one value" -- sim --trace "$swf" --param dfrs_cpu_need=0.5,1

# a sacct history: two array tasks, two het components, no machine size
cat >"$tmp/h.csv" <<'CSV'
JobID|JobIDRaw|Submit|Start|End|NCPUS|TotalCPU
7_1|8|2024-03-01T00:00:00|2024-03-01T00:00:10|2024-03-01T00:01:00|4|00:02:00
7_2|9|2024-03-01T00:00:00|2024-03-01T00:00:10|2024-03-01T00:01:00|4|00:02:00
10+0|10|2024-03-01T00:00:01|2024-03-01T00:00:10|2024-03-01T00:01:00|2|
10+1|11|2024-03-01T00:00:01|2024-03-01T00:00:10|2024-03-01T00:01:00|2|
12|12|2024-03-01T00:00:02|2024-03-01T00:00:10|2024-03-01T00:01:00|16|
CSV
"$DFRS" sim --trace "$tmp/h.csv" --policy easy >"$tmp/out" 2>"$tmp/err" ||
	fail "sim of the history: exit $? ($(cat "$tmp/err"))"
once() {
	[ "$(grep -cF -- "$1" "$tmp/err")" = 1 ] ||
		fail "sim of the history: '$1' not once on stderr: $(cat "$tmp/err")"
}
once "dfrs sim: warning: $tmp/h.csv: 2 jobs are tasks of job arrays (JobID 123_4)"
once "dfrs sim: warning: $tmp/h.csv: 2 jobs are components of heterogeneous jobs (JobID 123+0)"
once "dfrs sim: warning: $tmp/h.csv: machine size guessed from the largest job: 16 units of 1 processor (no --nodes, no MaxProcs/MaxNodes header); give --nodes"
# the deployed plugin decides on measured needs, not on
# dfrs_cpu_need
once "dfrs sim: warning: CPU usage: the trace's for 2 jobs, Liu et al.'s model (1 process 100 %, more 40..100 %) for 3: a model, NOT this site's usage (a sacct export with TotalCPU gives it); deployed, sched/amcbf decides on the CPU needs dfrs-nodeagent measures: --need measured models it"
grep -qF "dfrs_cpu_need, default 1" "$tmp/err" && fail "sim: the CPU usage warning still names dfrs_cpu_need as the deployed model"
grep -qF "CPU usage: the trace's for 2 jobs" "$tmp/out" || fail "sim: the report does not say where the CPU usage came from"
# with the machine size and the plugin's CPU need: only the history's warnings
"$DFRS" sim --trace "$tmp/h.csv" --policy easy --nodes 4 --procs-per-node 4 --param dfrs_cpu_need=1 >"$tmp/out" 2>"$tmp/err" ||
	fail "sim --nodes 4: exit $?"
[ "$(wc -l <"$tmp/err")" = 2 ] || fail "sim --nodes 4 --param dfrs_cpu_need=1: want the 2 history warnings only: $(cat "$tmp/err")"
# with no --need, the rows of cmcbf and amcbf are the deployed, measured
# ones; declared (the oracle, row amcbf) on request
"$DFRS" sim --trace "$swf" --policy easy,cmcbf,amcbf,greedypm --format csv >"$tmp/out" 2>"$tmp/err" ||
	fail "sim with no --need: exit $?"
[ "$(cut -d, -f8 "$tmp/out" | tr '\n' ' ')" = "policy easy cmcbf-measured amcbf-measured greedypm " ] ||
	fail "sim with no --need: rows $(cut -d, -f8 "$tmp/out" | tr '\n' ' ')"
"$DFRS" sim --trace "$swf" --policy easy,cmcbf,amcbf,greedypm --format csv --need measured >"$tmp/out2" 2>/dev/null ||
	fail "sim --need measured: exit $?"
[ "$(cut -d, -f1-21,24- "$tmp/out")" = "$(cut -d, -f1-21,24- "$tmp/out2")" ] ||
	fail "sim with no --need: not the --need measured figures"
"$DFRS" sim --trace "$swf" --policy easy,amcbf --format csv --need declared,none >"$tmp/out" 2>/dev/null ||
	fail "sim --need declared,none: exit $?"
[ "$(cut -d, -f8 "$tmp/out" | tr '\n' ' ')" = "policy easy amcbf amcbf-none " ] ||
	fail "sim --need declared,none: rows $(cut -d, -f8 "$tmp/out" | tr '\n' ' ')"
"$DFRS" sim --help | grep -qF "default measured, as deployed" ||
	fail "sim --help does not say --need defaults to measured"
finish "guardrails: params --check, policy names, --param names, sim warnings"
