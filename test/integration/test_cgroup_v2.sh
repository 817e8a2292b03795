#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_cgroup_v2.sh - dfrs-nodeagent's cgroup v2 path, in a QEMU guest that
# boots with the unified hierarchy (contribs/vm-guest; the machines here keep
# the cpu controller on v1 hierarchies that must not be touched).  The checks
# run inside the guest: test/integration/guest/cgroup_v2.sh.  Exit 77
# (skipped, with the reason) only when the guest cannot be had: no QEMU, no
# Debian kernel package.  Two local clusters in the guest, one without
# Slurm cgroups (the agent's own groups) and one with Slurm's cgroup/v2
# plugin (the agent writes into slurmstepd's job groups): 4.5 minutes on two
# cores loaded by other work (load average 12) under TCG.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${DFRS_BUILD:-$top/build}

# DFRS_GUEST_PROBE=1: also measure the kernel alone, cpu.idle against the
# lowest weight for the background tier (doc/evaluation.md)
probe=
[ "${DFRS_GUEST_PROBE:-0}" = 1 ] && probe=--probe
"$top/contribs/vm-guest" run --timeout 420 --bind "$top" --bind "$build" -- "$top/test/integration/guest/cgroup_v2.sh" "$build" $probe
rc=$?
case $rc in
0) echo "PASS: test_cgroup_v2" ;;
77) echo "SKIP: test_cgroup_v2: no cgroup v2 guest here (see the vm-guest line above)" ;;
*) echo "FAIL: test_cgroup_v2: the guest's checks failed (status $rc)" ;;
esac
exit "$rc"
