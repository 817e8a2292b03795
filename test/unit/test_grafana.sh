#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_grafana.sh - contribs/grafana/slurm-dfrs.json against the code: it
# is JSON, and every slurm_dfrs_ metric its panels query is one that
# src/common/suite/sched_metrics.c writes (a renamed metric would leave a
# panel empty without a word).  No cluster, no Grafana.
set -u
top=${srcdir:-$(dirname "$0")/../..}
dash=$top/contribs/grafana/slurm-dfrs.json
code=$top/src/common/suite/sched_metrics.c
fails=0

python3 -m json.tool "$dash" >/dev/null || { echo "FAIL: $dash is not JSON"; exit 1; }
names=$(grep -o '"expr": "[^"]*"' "$dash" | grep -o 'slurm_dfrs_[a-z_]*' | sort -u)
[ -n "$names" ] || { echo "FAIL: no slurm_dfrs_ metric in $dash's queries"; exit 1; }
for n in $names; do
	if ! grep -q "\"$n\"" "$code"; then
		echo "FAIL: $dash queries $n, which sched_metrics.c does not write"
		fails=$((fails + 1))
	fi
done
[ "$fails" = 0 ] && echo "grafana: $(echo "$names" | wc -l) metrics queried, all written"
exit "$fails"
