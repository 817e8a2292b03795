#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_reconfigure.sh - sched/amcbf reads SchedulerParameters at start and on
# `scontrol reconfigure`: a bad value is one error line naming it, the previous
# settings stay, slurmctld keeps running and scheduling; a good value is
# applied and logged.  The settings in force survive a slurmctld restart
# with a bad value still in slurm.conf (StateSaveLocation/amcbf-state.json,
# which also brings back the jobs' virtual times); a corrupt state file is
# one error line, and the defaults.
#
# Slurm 22.05 reconfigures in place (the plugin logs "reconfigured,"); 24.11
# restarts slurmctld (a new process, the plugin loaded afresh), so there the
# test also expects a new slurmctld pid, and the previous settings after a
# bad value must come from what the plugin kept in StateSaveLocation.
# 24.11 also rewrites the pid file in place, and the test makes the new pid
# shorter than the old (below) so that its readers are tested on the result.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

start_cluster reconf --nodes 2 --port 17200 --sched-params 'amcbf_interval=5,amcbf_mode=ambf' ||
	{ fail "cluster did not start"; finish; }
log=$CLUSTER_DIR/slurmctld.log
conf=$SLURM_CONF
log_has 'loaded, parameters: amcbf_mode=ambf amcbf_priority=priority amcbf_interval=5 ' ||
	fail "start: parameters from SchedulerParameters not logged"

# what the plugin logs with the parameters after a reconfigure (on 24.11 the
# restarted plugin's first line, however it words its start)
if slurm_at_least 24.11; then
	restarts_ctld=1 applied='parameters:'
else
	restarts_ctld=0 applied='reconfigured, parameters:'
fi

# set_params PARAMS: write them into slurm.conf and reconfigure; log lines
# from then on are the reconfigure's (since=first line number)
set_params() {
	local pid
	pid=$(ctld_pid)
	since=$(($(wc -l < "$log") + 1))
	sed -i "s/^SchedulerParameters=.*/SchedulerParameters=defer,sched_interval=-1,$1/" "$conf"
	scontrol reconfigure || fail "scontrol reconfigure failed"
	if [ "$restarts_ctld" = 1 ]; then
		wait_for "slurmctld restarted by reconfigure (new pid)" \
			pid_changed "$pid"
		wait_for "restarted slurmctld answers" ping_up 1
	fi
}
pid_changed() {
	local now
	now=$(ctld_pid)
	[ -n "$now" ] && [ "$now" != "$1" ] && [ -d "/proc/$now" ]
}

# wait_log PATTERN: the log shows PATTERN after the last reconfigure within 10 s
wait_log() { wait_for "slurmctld log after the reconfigure: $1" log_has -f "$since" "$1"; }

# Slurm 24.11 writes the restarted slurmctld's pid over the old one without
# truncating the file: a new pid shorter than the old leaves the old one's
# last digits on a second line.  Where the kernel lets root choose the next
# pid, make that happen (a 5-digit pid, then a 3-digit one after the first
# reconfigure) so that reading the pid file is tested on it.
ns_last_pid=/proc/sys/kernel/ns_last_pid
# (root in a container may see the file writable and still be refused:
# then the test runs without it)
if [ "$restarts_ctld" = 1 ] && [ "$(cat /proc/sys/kernel/pid_max)" -ge 32768 ] &&
	(echo 32000 >"$ns_last_pid") 2>/dev/null; then
	"$cluster" restart-controller --dir "$CLUSTER_DIR" >/dev/null ||
		fail "slurmctld did not restart at a 5-digit pid"
	echo 400 >"$ns_last_pid"
	short_pid=1
fi
set_params 'amcbf_interval=abc,amcbf_mode=cmbf'
if [ "${short_pid:-0}" = 1 ]; then
	[ "$(wc -l <"$CLUSTER_DIR/slurmctld.pid")" -ge 2 ] ||
		echo "note: the pid file has one line after the reconfigure ($(ctld_pid)): pids taken meanwhile"
	"$cluster" status --dir "$CLUSTER_DIR" >/dev/null ||
		fail "local-cluster status: slurmctld not found from its pid file after the reconfigure"
fi
wait_log 'amcbf_interval=abc: not an integer in 1..3600; keeping previous settings'
wait_log "$applied amcbf_mode=ambf amcbf_priority=priority amcbf_interval=5 "
ping_up 1 || fail "slurmctld not answering after a bad parameter"

set_params 'amcbf_mode=cmcbf,amcbf_util_threshold=0.9'
wait_log "$applied amcbf_mode=cmcbf amcbf_priority=priority amcbf_interval=30 amcbf_util_threshold=0.9 "

id=$(submit -N2 --wrap 'sleep 1')
wait_jobs_done 60 "$id"
assert_completed_once "$id"

# wait_count PATTERN N: the log shows PATTERN on N lines within 10 s
wait_count() {
	local i
	for ((i = 0; i < 40; i++)); do
		[ "$(grep -c -- "$1" "$log")" -ge "$2" ] && return 0
		sleep 0.25
	done
	fail "slurmctld log never showed $2 lines: $1"
	return 1
}
good='amcbf_mode=cmcbf amcbf_priority=priority amcbf_interval=30 amcbf_util_threshold=0.9 '
running=$(submit -N1 --wrap 'sleep 10')
wait_for "a job running before the restart" state_is "$running" RUNNING
set_params 'amcbf_interval=abc,amcbf_mode=cmbf'
wait_count "$applied $good" 2
"$cluster" restart-controller --dir "$CLUSTER_DIR" || fail "slurmctld did not restart"
wait_log 'amcbf_interval=abc: not an integer in 1..3600; keeping the last good (amcbf-state.json) settings'
wait_log "loaded, parameters: $good"
wait_log "restored [1-9][0-9]* jobs' virtual times (0 with the nodes to resume on) from amcbf-state.json"
restart_ctld_with sh -c "echo '{\"version\": 1, \"jobs\": [' >'$CLUSTER_DIR/state/amcbf-state.json'"
wait_log 'amcbf-state.json: not JSON: it ends early (truncated?); starting without it'
wait_log 'amcbf_interval=abc: not an integer in 1..3600; keeping default settings'
wait_count 'loaded, parameters: amcbf_mode=amcbf amcbf_priority=priority amcbf_interval=30 ' 1
ping_up 1 || fail "slurmctld not answering after a corrupt state file"
wait_jobs_done 60 "$running"
assert_completed_once "$running"
stop_cluster
finish
