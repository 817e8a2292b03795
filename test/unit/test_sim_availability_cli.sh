#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_sim_availability_cli.sh - dfrs sim --availability end to end: the
# table, JSON and CSV of a small Markov run, a trace run, and exit status
# 2 (bad arguments) or 1 (malformed trace) with one message naming what is
# wrong.  Run by make check from the build directory.
set -u
CLI_ONE_MESSAGE=1
. "$(dirname "$0")/cli_expect.sh"

m=(--availability "markov:p01=0.1,p11=0.9" --runs 50)
expect 0 'gamma=4: T_3 optimal for the pooled chain' -- sim "${m[@]}"
expect 0 '50 runs x 132 slots, seed 1' -- sim "${m[@]}"
# always wait is T_n: its eq. (4) cost, 1/(1-beta) - P_3 = 10 - 3.7055
expect 0 'eq4_cost' -- sim "${m[@]}" --policy wait,T3 --gamma 1
grep -q '^wait  *3 .* 6\.294$' "$tmp/out" || fail "wait row: $(cat "$tmp/out")"
expect 0 '"ratio_to":"threshold"' -- sim "${m[@]}" --format json
expect 0 'gamma,policy,index,cost,cost_se,w,m,ratio,eq4_cost' -- sim "${m[@]}" --format csv
[ "$(wc -l <"$tmp/out")" = 21 ] || fail "csv: want 1 + 4 gammas x 5 policies lines"
expect 0 'usage: dfrs sim --availability' -- sim --availability x --help
expect 0 'dfrs sim --availability X --help' -- sim --help

printf '# 3 nodes\n1 1 1\n0 1 1\n1 1 0\n1 1 1\n' >"$tmp/ok.txt"
expect 0 'n=2 tasks on N=3 nodes' -- sim --availability "trace:$tmp/ok.txt" --n 2 --runs 2
printf '1 1 1\n0 1 1\n1 2 0\n' >"$tmp/bad.txt"
expect 1 "$tmp/bad.txt:3: field 2 is '2', not 0 or 1" -- sim --availability "trace:$tmp/bad.txt"
printf '1 1 1\n0 1\n' >"$tmp/short.txt"
expect 1 "$tmp/short.txt:2: 2 fields, line 1 has 3" -- sim --availability "trace:$tmp/short.txt"
expect 1 "$tmp/none.txt: cannot open" -- sim --availability "trace:$tmp/none.txt"
expect 2 "trace:$tmp/ok.txt: 5 nodes asked, the trace has 3" -- sim --availability "trace:$tmp/ok.txt" --nodes 5

expect 2 'markov:p01=2,p11=0.9: p01=2: not a probability in [0,1]' -- sim --availability markov:p01=2,p11=0.9
expect 2 'markov:p11=0.9: missing p01' -- sim --availability markov:p11=0.9
expect 2 "'weibull': expected markov:p01=X,p11=Y or trace:FILE" -- sim --availability weibull
expect 2 '--n 11: more tasks than the 10 nodes' -- sim "${m[@]}" --n 11
expect 2 "--gamma: 'x' is not a number" -- sim "${m[@]}" --gamma 1,x
expect 2 '--gamma: -1 is negative' -- sim "${m[@]}" --gamma -1
expect 2 '--beta: 1 is not in (0,1)' -- sim "${m[@]}" --beta 1
expect 2 "--runs: '0' must be a whole number from 1" -- sim "${m[@]}" --runs 0
expect 2 "--policy: unknown policy 'best'" -- sim "${m[@]}" --policy threshold,best
expect 2 'policy optimal: needs a markov source of at most 12 nodes' -- sim "${m[@]}" --nodes 13 --policy optimal
expect 2 "--policy: policy 'T4': T_i needs 0 <= i <= n=3" -- sim "${m[@]}" --policy T4
expect 2 "unknown option '--trace' with --availability" -- sim "${m[@]}" --trace x.swf
expect 2 '--seed needs a value' -- sim "${m[@]}" --seed

finish "dfrs sim --availability"
