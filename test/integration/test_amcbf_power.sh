#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_power.sh - power saving under sched/amcbf: with SuspendTime,
# SuspendProgram and ResumeProgram set, idle nodes power down; a job that
# needs them is started there by sched/amcbf, and Slurm's own resume path
# takes over (select_nodes() makes the job CONFIGURING, power_save.c runs
# ResumeProgram for its nodes).  The programs only log their node list:
# the emulated slurmds never stop, and do not register again as a booted
# node would, so the job stays CONFIGURING (what happens after a real boot
# is Slurm's, as under sched/backfill).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

pdir=$build/test-clusters/$test_name-progs
mkdir -p "$pdir"
rm -f "$pdir"/*.log
cat > "$pdir/suspend" <<EOS
#!/bin/sh
echo "\$1" >> "$pdir/suspend.log"
EOS
cat > "$pdir/resume" <<EOS
#!/bin/sh
echo "\$1" >> "$pdir/resume.log"
EOS
chmod +x "$pdir/suspend" "$pdir/resume"

start_cluster power --nodes 2 --port 18760 --select select/linear \
	--conf "SuspendProgram=$pdir/suspend" --conf "ResumeProgram=$pdir/resume" \
	--conf "SuspendTime=3" --conf "SuspendTimeout=2" --conf "ResumeTimeout=30" \
	--conf "SlurmctldParameters=power_save_interval=1,power_save_min_interval=0" ||
	{ fail "cluster did not start"; finish; }
powered_down() { sinfo -h -N -o '%N %t' | grep -c 'idle~'; }
both_down() { [ "$(powered_down)" -eq 2 ]; }
wait_for -t 30 "both idle nodes powered down (idle~)" both_down
j=$(submit -N2 --wrap 'sleep 1')
wait_for -t 20 "ResumeProgram called" test -s "$pdir/resume.log"
state=$(squeue -h -j "$j" -o '%T %N')
[ "$state" = "CONFIGURING n[1-2]" ] ||
	fail "job $j on powered-down nodes: '$state', want 'CONFIGURING n[1-2]'"
resumed=$(scontrol show hostnames "$(paste -sd, "$pdir/resume.log")" | sort -u | paste -sd,)
[ "$resumed" = n1,n2 ] || fail "ResumeProgram resumed '$resumed', want n1,n2"
finish
