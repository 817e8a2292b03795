#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_pack_cli.sh - dfrs pack end to end: output fields, exit status 1 and
# the job named for an infeasible instance, exit status 2 and one message
# for bad input; the printed placement itself (the numbers as printed, in
# exact arithmetic) respects every capacity, also where a job's need is
# above a host's capacity.  Run by make check from the build directory.
set -u
. "$(dirname "$0")/cli_expect.sh"

cat >"$tmp/ok.json" <<'JSON'
{"hosts": [[1, 1], [1, 1]],
 "jobs": [{"tasks": 2, "need": [0.5, 0], "req": [0, 0.3]},
          {"tasks": 1, "need": [0.8, 0], "req": [0, 0.5]},
          {"tasks": 1, "need": [0.4, 0], "req": [0, 0.2], "min_yield": 0.2}]}
JSON
expect 0 '"algorithm": "METAVP"' -- pack --instance "$tmp/ok.json"
expect 0 '"min_yield": 0.821428' -- pack --instance "$tmp/ok.json"
expect 0 '"lp_bound": 0.90566' -- pack --instance "$tmp/ok.json"
# yields rounded down: 0.821429 and 0.857143 would load host 0 with 1.0000004
expect 0 '"yields": [ 1, 0.821428, 0.857142 ]' -- pack --instance "$tmp/ok.json"
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
echo '{"hosts": [[1, 1]], "jobs": [{"need": [2, 0], "min_yield": 0.6}]}' >"$tmp/big.json"
expect 2 "job 0 dimension 0: need 2 at min_yield 0.6 (plus req 0) exceeds every host's capacity (largest 1)" -- pack --instance "$tmp/big.json"
echo '{"hosts": [[1, 1]], "jobs": [{"need": [0, 0], "req": [0, 1.5]}]}' >"$tmp/big.json"
expect 2 "job 0 dimension 1: req 1.5 exceeds every host's capacity (largest 1)" -- pack --instance "$tmp/big.json"
expect 2 'unknown algorithm' -- pack --instance "$tmp/ok.json" --algorithm NOPE
expect 2 'give one of --instance FILE.json or --random' -- pack
expect 2 'No such file' -- pack --instance "$tmp/none.json"
expect 2 "bad option '--bogus'" -- pack --bogus
expect 2 "option '--algorithm' needs a value" -- pack --instance "$tmp/ok.json" --algorithm
expect 2 'Is a directory' -- pack --instance "$tmp"

# A need above a host's capacity only bounds the yield there (capacity /
# need): two jobs of need 2 on hosts of CPU 1 and 1.5 get yields 0.5 and
# 0.75 (their memory keeps them apart), alone or with the small job.
cat >"$tmp/over.json" <<'JSON'
{"hosts": [[1, 1], [1.5, 1]],
 "jobs": [{"need": [2, 0], "req": [0, 0.6]}, {"need": [2, 0], "req": [0, 0.6]}]}
JSON
expect 0 '"yields": [ 0.5, 0.75 ]' -- pack --instance "$tmp/over.json" --algorithm METAGREEDY
expect 0 '"min_yield": 0.5' -- pack --instance "$tmp/over.json"
sed 's/\]}$/, {"tasks": 2, "need": [0.3, 0], "req": [0, 0.2], "min_yield": 0.5}]}/' \
	"$tmp/over.json" >"$tmp/over3.json"
expect 0 '"placement":' -- pack --instance "$tmp/over3.json"

# feasible INSTANCE OUTPUT: the placement as printed, in exact decimal
# arithmetic, within every capacity and every job's yield range
feasible() {
	python3 - "$1" "$2" <<'PY' || fail "printed placement of $1 infeasible"
import json, sys
from fractions import Fraction as F
inst = json.load(open(sys.argv[1]), parse_float=F, parse_int=F)
out = json.load(open(sys.argv[2]), parse_float=F, parse_int=int)
hosts = [h if isinstance(h, dict) else {"cap": h, "elem": h} for h in inst["hosts"]]
nd = len(hosts[0]["cap"])
load = [[F(0)] * nd for _ in hosts]
for i, job in enumerate(inst["jobs"]):
    y = F(out["yields"][i])
    lo = job.get("min_yield", F(0))
    if not lo <= y <= 1:
        sys.exit("job %d: yield %s outside [%s, 1]" % (i, y, lo))
    req, need = job.get("req", [F(0)] * nd), job.get("need", [F(0)] * nd)
    ereq, eneed = job.get("elem_req", req), job.get("elem_need", need)
    for h in out["placement"][i]:
        for d in range(nd):
            load[h][d] += req[d] + y * need[d]
            if ereq[d] + y * eneed[d] > hosts[h]["elem"][d]:
                sys.exit("job %d on host %d dimension %d: above elementary capacity" % (i, h, d))
for h, host in enumerate(hosts):
    for d in range(nd):
        if load[h][d] > host["cap"][d]:
            sys.exit("host %d dimension %d: load %s > capacity %s" % (h, d, float(load[h][d]), host["cap"][d]))
PY
}
"$DFRS" pack --random 8,40,0.4,0.3 --seed 5 --print-instance >"$tmp/gen.json" ||
	fail "dfrs pack --random --print-instance: exit $?"
for inst in ok het over over3 gen; do
	for alg in "" METAGREEDY VP_CPSUM; do
		if "$DFRS" pack --instance "$tmp/$inst.json" ${alg:+--algorithm "$alg"} \
			>"$tmp/placed.json"; then
			feasible "$tmp/$inst.json" "$tmp/placed.json"
		else
			fail "dfrs pack $inst.json $alg: exit $?"
		fi
	done
done

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
