#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_pack_cli.sh - dfrs pack end to end: output fields, exit status 1 and
# the job named for an infeasible instance, exit status 2 and one message
# for bad input.  Run by make check from the build directory.
set -u
. "$(dirname "$0")/cli_expect.sh"

cat >"$tmp/ok.json" <<'JSON'
{"hosts": [[1, 1], [1, 1]],
 "jobs": [{"tasks": 2, "need": [0.5, 0], "req": [0, 0.3]},
          {"tasks": 1, "need": [0.8, 0], "req": [0, 0.5]},
          {"tasks": 1, "need": [0.4, 0], "req": [0, 0.2], "min_yield": 0.2}]}
JSON
expect 0 '"algorithm": "METAVP"' -- pack --instance "$tmp/ok.json"
expect 0 '"min_yield": 0.821429' -- pack --instance "$tmp/ok.json"
expect 0 '"lp_bound": 0.90566' -- pack --instance "$tmp/ok.json"
expect 0 '"yields": [ 1, 0.821429, 0.857143 ]' -- pack --instance "$tmp/ok.json"
expect 0 '"placement": [ [ 1, 1 ], [ 0 ], [ 0 ] ]' -- pack --instance "$tmp/ok.json"
expect 0 '"seconds":' -- pack --instance "$tmp/ok.json"
expect 0 '"algorithm": "METAGREEDY"' -- pack --instance "$tmp/ok.json" --algorithm METAGREEDY
expect 0 'VP_CPSUM' -- pack --list

sed 's/\[\[1, 1\], \[1, 1\]\]/[[1, 1], [2, 1]]/' "$tmp/ok.json" >"$tmp/het.json"
expect 0 '"algorithm": "METAHVP"' -- pack --instance "$tmp/het.json"

cat >"$tmp/infeasible.json" <<'JSON'
{"hosts": [[1, 1]], "jobs": [{"need": [1, 0], "req": [0, 0.6]},
                             {"need": [1, 0], "req": [0, 0.6], "min_yield": 0.5}]}
JSON
expect 1 'job 1 (1 task, min_yield 0.5) cannot be placed at its minimum yield' -- pack --instance "$tmp/infeasible.json"

printf '{"hosts": [[1, 1]], "jobs": [' >"$tmp/bad.json"
expect 2 'malformed JSON at line 1' -- pack --instance "$tmp/bad.json"
echo '{"hosts": [[1, 1]], "jobs": [{"need": [1]}]}' >"$tmp/dims.json"
expect 2 'jobs[0].need: 1 values, but hosts[0] has 2 dimensions' -- pack --instance "$tmp/dims.json"
echo '{"hosts": [[1, 1]], "jobs": [{"need": [2, 0]}]}' >"$tmp/big.json"
expect 2 "need 2 exceeds every host's capacity" -- pack --instance "$tmp/big.json"
expect 2 'unknown algorithm' -- pack --instance "$tmp/ok.json" --algorithm NOPE
expect 2 'give one of --instance FILE.json or --random' -- pack
expect 2 'No such file' -- pack --instance "$tmp/none.json"
expect 2 "bad option '--bogus'" -- pack --bogus
expect 2 "option '--algorithm' needs a value" -- pack --instance "$tmp/ok.json" --algorithm
expect 2 'Is a directory' -- pack --instance "$tmp"

# generated instances: printed, read back, placed the same way
"$DFRS" pack --random 8,40,0.4,0.3 --seed 5 --print-instance >"$tmp/gen.json" ||
	fail "dfrs pack --random --print-instance: exit $?"
"$DFRS" pack --random 8,40,0.4,0.3 --seed 5 | sed 's/"seconds".*//' >"$tmp/a"
"$DFRS" pack --instance "$tmp/gen.json" | sed 's/"seconds".*//' >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "--random and its printed instance place differently"
expect 0 '"algorithm": "METAHVP"' -- pack --random 8,40,0.4,0.3
expect 0 '"algorithm": "METAVP"' -- pack --random 8,40,0.4
expect 2 "--random '8,40': expected HOSTS,TASKS,SLACK" -- pack --random 8,40
expect 2 "--seed '0': expected an integer >= 1" -- pack --random 8,40,0.4 --seed 0
expect 2 'give one of --instance FILE.json or --random' -- pack --random 8,40,0.4 --instance "$tmp/ok.json"

finish "dfrs pack CLI"
