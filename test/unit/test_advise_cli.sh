#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_advise_cli.sh - dfrs advise end to end on the shipped sacct sample
# and its slurm.conf (one seed, one load, no sweep: well under a second):
# the machine read from slurm.conf, the verdict, the best of the four
# baselines, greedypmr recommended where it wins and not where it does
# not, the blockers, the JSON,
# every text line within 120 columns, the checkpoint signal only for the
# jobs --ckpt-jobs names; on a small history of its own
# with no queueing: no clear difference; and exit status 2 (bad argument)
# or 1 (bad input) with one message naming what and where.
set -u
CLI_ONE_MESSAGE=1
. "$(dirname "$0")/cli_expect.sh"
top=${srcdir:-$(dirname "$0")/../..}
# the report names the history file: copies under the short scratch
# directory keep its width check independent of where the checkout is
cp "$top/contribs/data/sample-sacct.csv" "$top/contribs/data/sample-slurm.conf" "$tmp/"
sample=(--history "$tmp/sample-sacct.csv" --slurm-conf "$tmp/sample-slurm.conf")
quick=(--seeds 1 --loads 1 --no-sweep)

expect 0 'machine: 32 nodes of 32 CPUs, 128000 MB, 4 GPUs (from slurm.conf)' -- advise "${sample[@]}" "${quick[@]}"
expect 0 'jobs take the CPUs, memory and GPUs their AllocTRES says, as select/cons_tres allocates them' -- advise "${sample[@]}" "${quick[@]}"
expect 0 'VERDICT (load x1, 1 seeds): do not deploy' -- advise "${sample[@]}" "${quick[@]}"
expect 0 'CPU use: 1000 of 3000 jobs from the history' -- advise "${sample[@]}" "${quick[@]}"
expect 0 'partitions: 2 in the history, reported apart but not modelled as node sets' -- advise "${sample[@]}" "${quick[@]}"
# the sample's 298 array tasks are no blocker: sched/amcbf starts them
if "$DFRS" advise "${sample[@]}" "${quick[@]}" 2>&1 | grep -i 'array' >/dev/null; then
	fail "dfrs advise names job arrays (a blocker they are not)"
fi
expect 0 '2 parts of heterogeneous jobs (JobID 7+1)' -- advise "${sample[@]}" "${quick[@]}"
expect 0 "281 jobs with GRES: their gres/gpu replayed on the nodes' GPUs" -- advise "${sample[@]}" "${quick[@]}"
expect 0 '14 jobs in reservations' -- advise "${sample[@]}" "${quick[@]}"
# priority/multifactor orders the default amcbf_priority=priority's queue:
# a blocker only under a stretch order
if "$DFRS" advise "${sample[@]}" "${quick[@]}" 2>&1 | grep 'PriorityType=priority/multifactor' >/dev/null; then
	fail "dfrs advise names priority/multifactor a blocker under amcbf_priority=priority"
fi
expect 0 'PriorityType=priority/multifactor: the deployed mode orders the queue by DFRS stretch' -- advise "${sample[@]}" "${quick[@]}" --params amcbf_priority=stretch
expect 0 'SchedulerParameters=defer,sched_interval=-1,amcbf_mode=amcbf,amcbf_util_threshold=0.8,amcbf_bg_min_rate=0' -- advise "${sample[@]}" "${quick[@]}"
expect 0 'short        2-4    conservative     1050' -- advise "${sample[@]}" "${quick[@]}"
# beside conservative and EASY: EASY++ and sjf-backfill, the best of the
# four named (on the sample at CPU granularity, conservative)
expect 0 '    mean bounded slowdown 1.07 (1.07..1.07 across seeds), mean response 0.92' -- advise "${sample[@]}" "${quick[@]}"
expect 0 'against the best baseline, conservative (the lowest mean bounded slowdown of the four): amcbf / conservative:' -- advise "${sample[@]}" "${quick[@]}"
expect 0 '                    sjf-backfill     1050     ' -- advise "${sample[@]}" "${quick[@]}"
wide=$(awk 'length($0) > 120' "$tmp/out")
[ -z "$wide" ] || fail "dfrs advise: lines over 120 columns: $wide"
expect 0 '"verdict":"do not deploy"' -- advise "${sample[@]}" "${quick[@]}" --format json
# the sample's 298 array tasks are no blocker either in JSON
if "$DFRS" advise "${sample[@]}" "${quick[@]}" --format json 2>&1 | grep 'array_tasks' >/dev/null; then
	fail "dfrs advise --format json lists array_tasks among the blockers"
fi
expect 0 '"best_baseline":"conservative",' -- advise "${sample[@]}" "${quick[@]}" --format json
expect 0 "excluded: amcbf: mean response 0.94 x EASY's, over 0.50 x (--max-response): its slowdown costs time to result" -- advise "${sample[@]}" "${quick[@]}" --max-response 0.5
wide=$(awk 'length($0) > 120' "$tmp/out")
[ -z "$wide" ] || fail "dfrs advise --max-response: lines over 120 columns: $wide"
expect 0 '"excluded":true' -- advise "${sample[@]}" "${quick[@]}" --max-response 0.5 --format json
# greedypmr beside the deployed mode.  On the sample's 32 nodes of 32 CPUs
# without memory it wins (a task's memory is the dfrs_mem draw, so a node
# takes several nodes' worth of one-CPU jobs, their CPUs shared by
# yields); with slurm.conf's RealMemory the sample's jobs fill a node's
# memory when they fill its CPUs, and it loses, deployed amcbf or
# greedypm; --no-alternative does not replay it
nomem=(--history "$tmp/sample-sacct.csv" --nodes 32 --cpus-per-node 32)
expect 0 'RECOMMENDED instead (it wins on both): amcbf_mode=dfrs,amcbf_dfrs_policy=greedypmr' -- advise "${nomem[@]}" "${quick[@]}"
expect 0 '"recommended":true' -- advise "${nomem[@]}" "${quick[@]}" --format json
expect 0 'not recommended (slowdown not 10 % lower)' -- advise "${sample[@]}" "${quick[@]}"
expect 0 "greedypmr: mean bounded slowdown 1.25 x the deployed mode's, mean response 1.03 x EASY's:" -- advise "${sample[@]}" "${quick[@]}" --params amcbf_mode=dfrs,amcbf_dfrs_policy=greedypm
if "$DFRS" advise "${sample[@]}" "${quick[@]}" --no-alternative 2>&1 | grep -q greedypmr; then
	fail "dfrs advise --no-alternative: greedypmr replayed"
fi
# the checkpoint signal reaches only the jobs that asked for it, which the
# history does not record: by default none checkpoints, as live without
# --signal; --ckpt-jobs all gives every job its progress over a requeue
ckpt=(--params "amcbf_mode=dfrs,amcbf_ckpt_signal=USR1")
expect 0 'mean bounded slowdown, greedypm / conservative: 1.38' -- advise "${sample[@]}" "${quick[@]}" "${ckpt[@]}"
expect 0 'mean bounded slowdown, greedypm / conservative: 1.38' -- advise "${sample[@]}" "${quick[@]}" --params amcbf_mode=dfrs
expect 0 'note: amcbf_ckpt_signal=USR1 goes only to jobs that asked for it with --signal' -- advise "${sample[@]}" "${quick[@]}" "${ckpt[@]}"
expect 0 'mean bounded slowdown, greedypm / conservative: 0.97' -- advise "${sample[@]}" "${quick[@]}" "${ckpt[@]}" --ckpt-jobs all
expect 0 'warning: --ckpt-jobs: --params sends no checkpoint signal (amcbf_ckpt_signal=none or amcbf_ckpt_wait=0): no job checkpoints' -- advise "${sample[@]}" "${quick[@]}" --params amcbf_mode=dfrs --ckpt-jobs all
expect 0 'if the load grows x1.5:' -- advise "${sample[@]}" --seeds 1 --loads 1,1.5 --no-sweep
expect 0 'amcbf_util_threshold   amcbf_bg_min_rate    mean bsld' -- advise "${sample[@]}" --seeds 1 --loads 1

# four jobs that never wait on 4 nodes: every policy the same
cat >"$tmp/h.csv" <<'CSV'
JobIDRaw,Partition,Submit,Start,End,ElapsedRaw,AllocCPUS,TimelimitRaw
1,batch,2024-03-01T00:00:00,2024-03-01T00:00:00,2024-03-01T00:01:40,100,4,10
2,batch,2024-03-01T00:00:10,2024-03-01T00:00:10,2024-03-01T00:00:20,10,4,10
CSV
expect 0 'VERDICT (load x1, 2 seeds): no clear difference' -- advise --history "$tmp/h.csv" --nodes 4 --cpus-per-node 4 --seeds 2 --loads 1
expect 0 'none of: heterogeneous jobs, GRES' -- advise --history "$tmp/h.csv" --nodes 4 --cpus-per-node 4 --seeds 2 --loads 1
expect 0 'not recommended (slowdown not 10 % lower)' -- advise --history "$tmp/h.csv" --nodes 4 --cpus-per-node 4 --seeds 2 --loads 1
expect 0 'warning: no --nodes and no --slurm-conf: guessing 4 nodes of 1 CPUs from the history (its largest job)' -- advise --history "$tmp/h.csv" "${quick[@]}"

printf 'NodeName=n[1-4] CPUs=4\nNodeName=m[1-2] CPUs=x\n' >"$tmp/bad.conf"
expect 1 "$tmp/bad.conf:2: CPUs=x is not a whole number above 0" -- advise --history "$tmp/h.csv" --slurm-conf "$tmp/bad.conf"
expect 1 'no-such.csv' -- advise --history "$tmp/no-such.csv"
expect 2 '--history FILE is required' -- advise --nodes 4
expect 2 "--format 'csv': expected table or json" -- advise --history "$tmp/h.csv" --format csv
expect 2 '--loads 0: a factor must be above 0' -- advise --history "$tmp/h.csv" --loads 1,0
expect 2 'amcbf_mode=fast' -- advise --history "$tmp/h.csv" --params amcbf_mode=fast
expect 2 "--ckpt-jobs: 'user=x': a UID is a number from 0" -- advise --history "$tmp/h.csv" --ckpt-jobs user=x
expect 2 "unknown option '--bogus'" -- advise --history "$tmp/h.csv" --bogus
expect 0 'usage: dfrs advise --history FILE' -- advise --help
finish advise
