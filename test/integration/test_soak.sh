#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_soak.sh - the soak benchmark (contribs/soak/soak.sh) in short: about
# a minute of jobs for each mode (amcbf: preemption and both tiers;
# dfrs: online GreedyPM), one fault every 8 s, each kind in turn
# (--faults-in-turn: a slurmctld restart, a slurmd kill, a bad then good
# reconfigure, a restart on corrupted state files, a drain), submissions
# going on until each kind has come once.  Every submitted job must complete
# exactly once: none lost, none duplicated, none left in the queue once
# submissions stop and the queue has had up to 5 minutes to drain (jobs
# killed with their slurmd may end otherwise; they are counted, not
# failed).  What each job's record says is read from jobcomp/filetxt.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

out=$build/soak-test.log
if "$top/contribs/soak/soak.sh" --minutes 2 --rate 1 --seed 3 --nodes 6 \
	--fault-every 8 --faults-in-turn --drain 300 --modes amcbf,dfrs --port 19900 \
	>"$out" 2>&1; then
	grep -E '^(amcbf|dfrs): (submitted|faults)' "$out"
	for mode in amcbf dfrs; do
		for kind in corrupt ctld drain reconf slurmd; do
			grep -qE "^$mode: faults .*\b$kind [1-9]" "$out" ||
				fail "$mode: no '$kind' fault was injected"
		done
	done
else
	cat "$out"
	fail "a job was lost, duplicated or left in the queue (above; clusters in $build/soak)"
fi
finish
