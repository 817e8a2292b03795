/*
 * cmd_pack.c - dfrs pack: placeholder until its library lands.
 */
#include <stdio.h>

#include "commands.h"

int cmd_pack(int argc, char **argv)
{
	fprintf(stderr, "dfrs pack: not available in this build yet\n");
	return 2;
}
