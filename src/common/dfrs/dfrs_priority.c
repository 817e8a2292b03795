/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_priority.c - online DFRS job priorities 1/vt, ft/vt, ft/vt^2
 * (Stillwell et al. 2010, "Priority").
 */
#include <math.h>
#include <string.h>

#include "dfrs_priority.h"

double dfrs_priority_value(dfrs_priority_t kind, double submit,
			   double virtual_time, double now)
{
	double ft = now - submit;

	if (virtual_time <= 0.0)
		return INFINITY;
	if (ft < 0.0)
		ft = 0.0;
	switch (kind) {
	case DFRS_PRIO_VT:
		return 1.0 / virtual_time;
	case DFRS_PRIO_FT_VT:
		return ft / virtual_time;
	case DFRS_PRIO_FT_VT2:
	default:
		return ft / (virtual_time * virtual_time);
	}
}

int dfrs_priority_parse(const char *name, dfrs_priority_t *out)
{
	if (!strcmp(name, "1/vt"))
		*out = DFRS_PRIO_VT;
	else if (!strcmp(name, "ft/vt"))
		*out = DFRS_PRIO_FT_VT;
	else if (!strcmp(name, "ft/vt2") || !strcmp(name, "ft/vt^2"))
		*out = DFRS_PRIO_FT_VT2;
	else
		return -1;
	return 0;
}
