#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_nodeagent_cli.sh - dfrs-nodeagent refuses a bad --interval, --cgroup
# or --background with exit status 2 and one message, before it contacts
# anything (4294967297 was taken as 1: cast to int before the range check).  Run by make check from
# the build directory.
set -u
DFRS=${NODEAGENT:-./dfrs-nodeagent}
. "$(dirname "$0")/cli_expect.sh"
CLI_ONE_MESSAGE=1

for v in 4294967297 0 3601 -1 2x ''; do
	expect 2 "dfrs-nodeagent: --interval $v: not an integer in 1..3600" -- \
		--node n1 --once --interval "$v"
done

for v in v3 '' V2; do
	expect 2 "dfrs-nodeagent: --cgroup '$v': want auto, v1 or v2" -- \
		--node n1 --once --cgroup "$v"
done
for v in low '' IDLE; do
	expect 2 "dfrs-nodeagent: --background '$v': want idle or weight" -- \
		--node n1 --once --background "$v"
done

finish "dfrs-nodeagent --interval, --cgroup, --background"
