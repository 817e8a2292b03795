#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_deep_path.sh - contribs/local-cluster from a deep state directory
# (over 110 characters), the build directory reached through a symbolic link,
# as in a checkout under a long or linked path: a batch job with an srun step
# runs to COMPLETED (slurmstepd's Unix sockets are made in the slurmd spool,
# whose paths may not exceed 107 characters); a start after a crash (every
# daemon killed) from the same directory works; stop ends every daemon and
# node agent although their /proc/PID/exe is the physical path; a spool that
# would still be too long is refused in one line before anything starts.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d /tmp/dfrs-deep.XXXXXX)
# the build directory through a link: what local-cluster sees is logical
ln -s "$build" "$tmp/build"
CLUSTER_DIR=$tmp/build/test-clusters/$test_name/$(printf 'a-directory-name-of-some-length-%d/' 1 2 3)state
export SLURM_CONF=$CLUSTER_DIR/slurm.conf
[ "${#CLUSTER_DIR}" -gt 110 ] || fail "the state directory is only ${#CLUSTER_DIR} characters"
lc() { DFRS_BUILD=$tmp/build "$cluster" "$@" --dir "$CLUSTER_DIR"; }
cleanup() {
	lc stop >/dev/null 2>&1
	rm -rf "$build/test-clusters/$test_name" "$tmp"
}
trap cleanup EXIT

lc start --nodes 2 --port 17950 --node-agent --select select/linear ||
	{ fail "cluster did not start from a deep directory"; finish; }
# a crash: every daemon killed; a start from the same directory must work
for f in "$CLUSTER_DIR"/*.pid; do
	p=$(head -1 "$f")
	kill -9 "$p" 2>/dev/null && wait_for "pid $p killed" test ! -d "/proc/$p"
done
lc start --nodes 2 --port 17950 --node-agent --select select/linear ||
	{ fail "cluster did not start again after a crash"; finish; }

id=$(submit -w n1 -o "$CLUSTER_DIR/job-%j.out" --wrap 'srun -n1 echo step-ran')
wait_jobs_done 60 "$id"
assert_completed_once "$id"
grep -qx step-ran "$CLUSTER_DIR/job-$id.out" 2>/dev/null ||
	fail "job $id: its srun step did not run: $(cat "$CLUSTER_DIR/job-$id.out" 2>&1)"
grep -q "slurmd spool (their Unix sockets): /" <<<"$(lc status)" ||
	fail "status does not say where the spool is"

# the pids of this cluster's daemons and agents, and the executable of each
pids=()
for f in "$CLUSTER_DIR"/slurm*.pid "$CLUSTER_DIR"/nodeagent-*.pid; do
	p=$(head -1 "$f") && pids+=("$p:$(readlink "/proc/$p/exe")")
done
[ "${#pids[@]}" = 5 ] || fail "want 5 pid files (slurmctld, 2 slurmds, 2 agents), got ${#pids[@]}"
spool=$(readlink "$CLUSTER_DIR/spool")
lc stop >/dev/null
for pe in "${pids[@]}"; do
	p=${pe%%:*}
	[ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "${pe#*:}" ] &&
		fail "pid $p (${pe#*:}) still running after stop"
done
if [ -z "$spool" ] || [ -e "$spool" ]; then fail "stop left the spool directory '$spool'"; fi
[ ! -e "$CLUSTER_DIR/spool" ] || fail "stop left the link $CLUSTER_DIR/spool"

# a spool still too long (an administrator's DFRS_RUN_DIR): one line, nothing started
out=$(DFRS_RUN_DIR=/tmp/$(printf 'x%.0s' {1..90}) lc start --nodes 2 --port 17950 2>&1)
rc=$?
[ "$rc" != 0 ] || fail "a spool path over Slurm's socket limit was accepted"
if [ "$(grep -c . <<<"$out")" != 1 ] || ! grep -q "Slurm's limit: 107" <<<"$out"; then
	fail "refusal of a long spool: want one line naming the limit, got: $out"
fi
[ ! -e "$CLUSTER_DIR/nodes" ] || fail "a cluster started although the spool is too long"
finish
