/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * amcbf_received.h - the CPU a running job received, as the node agents
 * measured it on its nodes (the dfrs:measured= word of each node's Extra,
 * need/measured_tag.h), for the time limit sched/amcbf gives back
 * (amcbf/limit_charge.h; Liu et al. 2013, section 4.1: CPU usage from
 * history).  Call with slurmctld's job and node locks held.
 */
#ifndef DFRS_AMCBF_RECEIVED_H
#define DFRS_AMCBF_RECEIVED_H

#include <time.h>

#include "amcbf/limit_charge.h"
#include "suite/dfrs_params.h"

/*
 * Fill in->measured, used and shared from the reports of the job's nodes:
 * measured when every node reported the job no longer than
 * dfrs_need_stale seconds before now (0: never measured); used the
 * smallest of its figures; shared when another job used CPU on one of its
 * nodes.  in->alone is left to the caller.
 */
void amcbf_received(job_record_t *job_ptr, const dfrs_params_t *params,
		    time_t now, limit_charge_in_t *in);

#endif
