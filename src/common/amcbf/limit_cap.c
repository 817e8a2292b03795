/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * limit_cap.c - the wall-clock bound on sched/amcbf's time-limit extension
 * (limit_cap.h).
 */
#include "limit_cap.h"

time_t limit_cap_end(time_t start, time_t suspended, uint32_t part_max_min,
		     uint32_t qos_max_min)
{
	uint32_t m = part_max_min;

	if (qos_max_min && (!m || qos_max_min < m))
		m = qos_max_min;
	if (!m || start <= 0)
		return 0;
	return start + (suspended > 0 ? suspended : 0) + (time_t)m * 60;
}

time_t limit_cap_resume(time_t now, time_t slurm_end, time_t end_before,
			time_t suspended_at, time_t deadline)
{
	time_t end = now + (end_before - suspended_at);

	if (end < slurm_end)
		end = slurm_end;
	if (deadline > 0 && end > deadline)
		end = deadline > slurm_end ? deadline : slurm_end;
	return end;
}

time_t limit_cap_move(time_t end, time_t add, time_t cap)
{
	time_t moved = end + (add > 0 ? add : 0);

	if (cap && moved > cap)
		moved = cap > end ? cap : end;
	return moved;
}

double limit_cap_room(time_t end, time_t cap_end, time_t deadline)
{
	double room;

	if (!cap_end && !deadline)
		return -1;
	room = cap_end ? difftime(cap_end, end) : difftime(deadline, end);
	if (cap_end && deadline && difftime(deadline, end) < room)
		room = difftime(deadline, end);
	return room < 0 ? 0 : room;
}

int limit_cap_may_slow(double run_left, double room, double slowdown)
{
	if (room < 0 || !(slowdown > 0) || !(run_left > 0))
		return 1;
	return room >= slowdown * run_left;
}
