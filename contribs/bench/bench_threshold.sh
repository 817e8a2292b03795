#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench_threshold.sh - time the migrate-or-wait gamma partition for
# n = 8, 64, 256 and a cached decision, on one core.
# Run from a build directory: ../contribs/bench/bench_threshold.sh
# (builds contribs/bench/bench_threshold there first).
set -eu
make -s contribs/bench/bench_threshold
if command -v taskset >/dev/null 2>&1; then
	exec taskset -c 0 ./contribs/bench/bench_threshold "$@"
fi
exec ./contribs/bench/bench_threshold "$@"
