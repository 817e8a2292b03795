/*
 * cmd_threshold.c - dfrs threshold: placeholder until its library lands.
 */
#include <stdio.h>

#include "commands.h"

int cmd_threshold(int argc, char **argv)
{
	fprintf(stderr, "dfrs threshold: not available in this build yet\n");
	return 2;
}
