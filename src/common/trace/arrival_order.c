/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arrival_order.c - submit time, then a unique key (arrival_order.h).
 */
#include "arrival_order.h"

int arrival_order(double submit_a, long key_a, double submit_b, long key_b)
{
	if (submit_a != submit_b)
		return submit_a < submit_b ? -1 : 1;
	return (key_a > key_b) - (key_a < key_b);
}
