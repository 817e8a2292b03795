/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_node_share_json.c - fuzz target for node_share_print_status, which
 * `dfrs status` runs on select/dfrs's dfrs-nodes.json: it prints the table
 * or fails with one message.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_targets.h"
#include "suite/node_share_json.h"

int fuzz_node_share_json(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	char *text = fuzz_text(data, size), err[256] = "";
	int rc;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	rc = node_share_print_status(text, devnull, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || (rc == -1 && fuzz_one_message(err)));
	free(text);
	return 0;
}
