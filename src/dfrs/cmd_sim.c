/*
 * cmd_sim.c - dfrs sim: placeholder until its library lands.
 */
#include <stdio.h>

#include "commands.h"

int cmd_sim(int argc, char **argv)
{
	fprintf(stderr, "dfrs sim: not available in this build yet\n");
	return 2;
}
