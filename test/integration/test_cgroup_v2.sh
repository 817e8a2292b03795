#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_cgroup_v2.sh - dfrs-nodeagent's cgroup v2 path, in a QEMU guest that
# boots with the unified hierarchy (contribs/vm-guest; the machines here keep
# the cpu controller on v1 hierarchies that must not be touched).  The checks
# run inside the guest: test/integration/guest/cgroup_v2.sh.  Exit 77
# (skipped, with the reason) only when the guest cannot be had: no QEMU, no
# Debian kernel package.  About 2 minutes on two loaded cores under TCG.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${DFRS_BUILD:-$top/build}

"$top/contribs/vm-guest" run --timeout 420 -- "$top/test/integration/guest/cgroup_v2.sh" "$build"
rc=$?
case $rc in
0) echo "PASS: test_cgroup_v2" ;;
77) echo "SKIP: test_cgroup_v2: no cgroup v2 guest here (see the vm-guest line above)" ;;
*) echo "FAIL: test_cgroup_v2: the guest's checks failed (status $rc)" ;;
esac
exit "$rc"
