#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_nodeagent_stop.sh - dfrs-nodeagent, its slurmctld gone (nothing
# listens on the configured port), exits on SIGTERM within 5 s, the bound
# generous for a machine under load, with its "stopping" line and its pid
# file removed.  libslurm retries a dead controller for MessageTimeout (here
# 10 s) in each call and no signal cuts that short: the agent used to take
# 20 s, a query and then its exit pass's.  Prints the time it took.  Run by
# make check from the build directory; no cgroup is touched (--controller
# none: not enforcing).
set -u
AGENT=${NODEAGENT:-./dfrs-nodeagent}
tmp=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

# a port nothing listens on
port=
for p in 6817 16817 26817 36817; do
	ss -Htln "sport = :$p" 2>/dev/null | grep -q . || { port=$p; break; }
done
[ -n "$port" ] || { echo "SKIP: no free port"; exit 77; }
cat >"$tmp/slurm.conf" <<EOF
ClusterName=gone
SlurmctldHost=localhost
SlurmctldAddr=127.0.0.1
SlurmctldPort=$port
AuthType=auth/none
CredType=cred/none
MessageTimeout=10
NodeName=n1 NodeAddr=127.0.0.1 CPUs=1
PartitionName=p Nodes=n1
EOF

SLURM_CONF=$tmp/slurm.conf "$AGENT" --node n1 --interval 1 --controller none \
	--log "$tmp/agent.log" --pidfile "$tmp/agent.pid" </dev/null &
pid=$!
# up and in its first pass (which asks slurmctld at once): the warning that
# it does not enforce is its last line before the pass
for ((i = 0; i < 100; i++)); do
	grep -q "not enforcing" "$tmp/agent.log" 2>/dev/null && break
	sleep 0.1
done
grep -q "not enforcing" "$tmp/agent.log" ||
	{ echo "FAIL: the agent did not start:"; cat "$tmp/agent.log"; exit 1; }
sleep 0.5

start=$(date +%s%N)
kill -TERM "$pid"
for ((i = 0; i < 50; i++)); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
ms=$((($(date +%s%N) - start) / 1000000))
fails=0
if kill -0 "$pid" 2>/dev/null; then
	echo "FAIL: still running 5 s after SIGTERM, slurmctld gone"
	fails=1
else
	wait "$pid"
	rc=$?
	pid=
	[ "$rc" = 0 ] || { echo "FAIL: exit status $rc after SIGTERM"; fails=1; }
	grep -q "stopping$" "$tmp/agent.log" || { echo "FAIL: no 'stopping' line"; fails=1; }
	[ ! -e "$tmp/agent.pid" ] || { echo "FAIL: pid file left"; fails=1; }
fi
echo "dfrs-nodeagent exited $ms ms after SIGTERM (slurmctld gone)"
[ "$fails" = 0 ] || { cat "$tmp/agent.log"; exit 1; }
echo "ok: dfrs-nodeagent stops at once without slurmctld"
