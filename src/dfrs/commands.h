/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commands.h - the dfrs command's subcommands, one file each (cmd_*.c).
 * Each takes the arguments after its name (argv[0] is the subcommand) and
 * returns the process exit status.
 */
#ifndef DFRS_COMMANDS_H
#define DFRS_COMMANDS_H

int cmd_params(int argc, char **argv);
int cmd_threshold(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_sim(int argc, char **argv);
/* dfrs sim --availability: migrate-or-wait policies (cmd_sim_availability.c) */
int cmd_sim_availability(int argc, char **argv);
int cmd_advise(int argc, char **argv);
int cmd_excerpt(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_status(int argc, char **argv);

#endif
