#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_work_cli.sh - dfrs-work, the computing job of the CPU-mode live
# comparison, without Slurm: three ranks of one job meet at every quantum and
# each burns exactly its work (seconds x need x speed of CPU time, read back
# from its report); a checkpoint file resumes a job where it was; a
# checkpoint signal writes it and ends the process; one message for bad
# input; a rank waits at the barrier for the others.  Run by make check
# from the build directory.
set -u
DFRS=${DFRS_WORK:-./dfrs-work}
. "$(dirname "$0")/cli_expect.sh"

# three ranks of job 7, 1.1 s of run time in quanta of 0.25 s (5 quanta, the
# last one short), need 0.5 of a node of 0.4 core: 0.22 CPU seconds each
for r in 0 1 2; do
	"$DFRS" --seconds 1.1 --need 0.5 --speed 0.4 --quantum 0.25 --dir "$tmp" \
		--job 7 --rank $r --ranks 3 >"$tmp/rank$r" 2>&1 &
done
wait
for r in 0 1 2; do
	# 0.22 CPU s burned, plus what waiting at the barrier costs on a busy
	# machine; under 0.40: ignoring the need (0.44) or the speed (0.55) fails
	cpu=$(sed -n "s/^dfrs-work: job 7 rank $r quanta 5\/5 from 0 cpu \([0-9.]*\) wall .*/\1/p" "$tmp/rank$r")
	awk -v c="${cpu:-x}" 'BEGIN { exit !(c ~ /^[0-9.]+$/ && c >= 0.22 && c < 0.40) }' ||
		fail "rank $r: $(cat "$tmp/rank$r")"
	[ "$(cat "$tmp/7.0.$r")" = 5 ] || fail "rank $r posted $(cat "$tmp/7.0.$r") quanta, want 5"
done

# rank 0 of two, alone: it posts its first quantum and waits there for
# rank 1 (it would be done in 0.4 s without the barrier; the 3 s bound can
# only make a broken barrier pass, never a working one fail)
timeout 3 "$DFRS" --seconds 0.4 --quantum 0.2 --speed 0.01 --dir "$tmp" --job 6 \
	--rank 0 --ranks 2 >"$tmp/job6" 2>&1
rc=$?
[ "$rc" = 124 ] || fail "rank 0 of 2 alone: exit $rc, want to be still waiting ($(cat "$tmp/job6"))"
[ "$(cat "$tmp/6.0.0")" = 1 ] || fail "rank 0 of 2 alone posted $(cat "$tmp/6.0.0") quanta, want 1"

# resumed from a checkpoint at 3 of 5 quanta: two quanta of CPU work
echo 3 >"$tmp/8.ckpt"
expect 0 "job 8 rank 0 quanta 5/5 from 3 cpu 0.08" -- --seconds 1 --quantum 0.2 \
	--speed 0.2 --dir "$tmp" --job 8 --checkpoint --restart 1
# without --checkpoint the file is not read
expect 0 "job 8 rank 0 quanta 5/5 from 0" -- --seconds 1 --quantum 0.2 --speed 0.01 \
	--dir "$tmp" --job 8 --restart 2

# TERM (as a requeue sends it) writes the checkpoint: the quanta every rank
# has passed, here the one rank's, then the process ends with 143
"$DFRS" --seconds 1000 --quantum 0.05 --speed 0.01 --dir "$tmp" --job 9 \
	--checkpoint >"$tmp/job9" 2>&1 &
pid=$!
i=0
while [ "$(cat "$tmp/9.0.0" 2>/dev/null || echo 0)" -lt 2 ] && [ $i -lt 600 ]; do
	sleep 0.05; i=$((i + 1))
done
kill -TERM $pid
wait $pid
rc=$?
[ "$rc" = 143 ] || fail "job 9: exit $rc after TERM, want 143"
[ "$(cat "$tmp/9.ckpt" 2>/dev/null || echo 0)" -ge 2 ] || fail "job 9: no checkpoint of at least 2 quanta"
grep -q "^dfrs-work: job 9 rank 0 quanta [0-9]*/20000 from 0 " "$tmp/job9" || fail "job 9: $(cat "$tmp/job9")"

CLI_ONE_MESSAGE=1
expect 2 "dfrs-work: --seconds is required" -- --job 1
expect 2 "dfrs-work: --need 1.5: not a number in (0, 1]" -- --seconds 1 --need 1.5 --job 1
expect 2 "dfrs-work: --speed 0: not a number in (0, 1]" -- --seconds 1 --speed 0 --job 1
expect 2 "dfrs-work: --rank (or SLURM_PROCID) 3: not a number in [0, 2]" -- --seconds 1 --job 1 --rank 3 --ranks 3
expect 2 "dfrs-work: no job id: give --job ID (no '/') or run under Slurm" -- --seconds 1 --job a/b
expect 2 "dfrs-work: unexpected argument 'x'" -- --seconds 1 --job 1 x
finish "dfrs-work"
