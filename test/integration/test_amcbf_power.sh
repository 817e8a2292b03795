#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_amcbf_power.sh - power saving under sched/amcbf: with SuspendTime,
# SuspendProgram and ResumeProgram set, idle nodes power down; a job that
# needs them is started there by sched/amcbf, and Slurm's own resume path
# (select_nodes(): the job CONFIGURING, power_save.c running ResumeProgram)
# wakes them: ResumeProgram is called with the job's nodes and the job
# completes.  The emulated slurmds never stop, so the programs only log
# their node list (ResumeProgram also has the node answer again, as a
# booted node would, by "scontrol update state=resume").
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
	--conf "SuspendTime=3" --conf "SuspendTimeout=2" --conf "ResumeTimeout=30" ||
	{ fail "cluster did not start"; finish; }
powered_down() { sinfo -h -N -o '%N %T' | grep -c 'idle~'; }
both_down() { [ "$(powered_down)" -eq 2 ]; }
wait_for -t 30 "both idle nodes powered down (idle~)" both_down
j=$(submit -N2 --wrap 'sleep 1')
wait_for -t 20 "ResumeProgram called for the job's nodes" \
	test -s "$pdir/resume.log"
sinfo -N >&2; squeue >&2; cat $pdir/resume.log >&2
finish
