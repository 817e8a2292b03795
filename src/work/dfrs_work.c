/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dfrs_work.c - dfrs-work, the computing job of the live comparison
 * (contribs/live-compare --work cpu, doc/live-compare.md).
 *
 * One process per node of a job burns the job's work: its run time
 * at full speed times the node's speed (cores) times its CPU need, in
 * quanta of --quantum seconds.  A quantum computes need x quantum x speed
 * CPU seconds, then sleeps until quantum seconds have passed since it began:
 * alone on its node the job uses `need` of the node and takes its run time;
 * given a share s of the node under contention it moves at s / need of full
 * speed, the progress model of Stillwell et al. 2010 (section 3: a job's
 * yield is the fraction of its need it gets) and of Liu et al. 2013's
 * background tier (it runs on what the foreground job leaves idle).  After
 * each quantum the job's processes meet at a barrier (work_barrier.h), so the
 * job moves at the pace of its slowest process.  SIGSTOP stops it; a requeue
 * starts it again from zero, or with --checkpoint from the quanta recorded
 * when a checkpoint signal (USR1, USR2, TERM, INT, HUP) arrived.  At the end
 * each process prints the CPU and wall time it got.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "work_barrier.h"
#include "work_burn.h"

typedef struct {
	double seconds, need, speed, quantum;
	bool checkpoint;
	const char *job;
	long restart;
	work_barrier_t barrier;
} work_args_t;

static volatile sig_atomic_t ckpt_asked, stop_asked;

static void on_ckpt(int sig)
{
	ckpt_asked = 1;
	if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP)
		stop_asked = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
"usage: dfrs-work --seconds S [--need D] [--speed F] [--quantum Q] [--dir DIR]\n"
"                 [--checkpoint] [--job ID] [--restart K] [--rank R] [--ranks N]\n"
"Burns S x F x D CPU seconds per process at duty cycle D, the processes of\n"
"one job advancing together one quantum at a time (doc/live-compare.md).\n"
"  --seconds S   the job's run time at full speed (> 0)\n"
"  --need D      CPU need, the duty cycle, in (0, 1] (default 1)\n"
"  --speed F     cores one node is worth, in (0, 1] (default 1)\n"
"  --quantum Q   seconds of run time between barriers (default 1)\n"
"  --dir DIR     directory of the barrier and checkpoint files (default .)\n"
"  --checkpoint  resume from DIR/ID.ckpt; write it on USR1, USR2, TERM, INT\n"
"                or HUP (the last three then end the process)\n"
"  --job ID      default $SLURM_JOB_ID\n"
"  --restart K   default $SLURM_RESTART_COUNT or 0\n"
"  --rank R      default $SLURM_PROCID or 0\n"
"  --ranks N     default $SLURM_NTASKS or 1\n");
}

/* A number in [lo, hi] (lo excluded if open_lo) from option `name`. */
static int parse_num(const char *name, const char *text, double lo,
		     bool open_lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || !isfinite(v) || v > hi ||
	    (open_lo ? v <= lo : v < lo)) {
		fprintf(stderr, "dfrs-work: --%s %s: not a number in %s%g, %g]\n",
			name, text, open_lo ? "(" : "[", lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);
	return v && *v ? v : dflt;
}

static int parse_args(int argc, char **argv, work_args_t *w)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "need", required_argument, NULL, 'n' },
		{ "speed", required_argument, NULL, 'f' },
		{ "quantum", required_argument, NULL, 'q' },
		{ "dir", required_argument, NULL, 'd' },
		{ "checkpoint", no_argument, NULL, 'c' },
		{ "job", required_argument, NULL, 'j' },
		{ "restart", required_argument, NULL, 'k' },
		{ "rank", required_argument, NULL, 'r' },
		{ "ranks", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *rank = env_or("SLURM_PROCID", "0");
	const char *ranks = env_or("SLURM_NTASKS", "1");
	const char *restart = env_or("SLURM_RESTART_COUNT", "0");
	const char *dir = ".";
	double v;
	int c;

	*w = (work_args_t){ .seconds = -1, .need = 1, .speed = 1, .quantum = 1,
			    .job = getenv("SLURM_JOB_ID") };
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		int rc = 0;
		switch (c) {
		case 's': rc = parse_num("seconds", optarg, 0, true, 1e7, &w->seconds); break;
		case 'n': rc = parse_num("need", optarg, 0, true, 1, &w->need); break;
		case 'f': rc = parse_num("speed", optarg, 0, true, 1, &w->speed); break;
		case 'q': rc = parse_num("quantum", optarg, 0.01, false, 3600, &w->quantum); break;
		case 'd': dir = optarg; break;
		case 'c': w->checkpoint = true; break;
		case 'j': w->job = optarg; break;
		case 'k': restart = optarg; break;
		case 'r': rank = optarg; break;
		case 'N': ranks = optarg; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
		if (rc)
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "dfrs-work: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (w->seconds < 0) {
		fprintf(stderr, "dfrs-work: --seconds is required\n");
		return -1;
	}
	if (!w->job || !*w->job || strchr(w->job, '/')) {
		fprintf(stderr, "dfrs-work: no job id: give --job ID (no '/') or run under Slurm\n");
		return -1;
	}
	if (parse_num("ranks (or SLURM_NTASKS)", ranks, 1, false, 100000, &v))
		return -1;
	w->barrier.ranks = (int)v;
	if (parse_num("rank (or SLURM_PROCID)", rank, 0, false, w->barrier.ranks - 1, &v))
		return -1;
	w->barrier.rank = (int)v;
	if (parse_num("restart (or SLURM_RESTART_COUNT)", restart, 0, false, 1e6, &v))
		return -1;
	w->restart = (long)v;
	if (strlen(dir) >= sizeof(w->barrier.dir)) {
		fprintf(stderr, "dfrs-work: --dir %s: path too long\n", dir);
		return -1;
	}
	snprintf(w->barrier.dir, sizeof(w->barrier.dir), "%s", dir);
	snprintf(w->barrier.tag, sizeof(w->barrier.tag), "%s.%ld", w->job, w->restart);
	return 0;
}

int main(int argc, char **argv)
{
	work_args_t w;
	long total, done, from;
	double cpu0, wall0;

	if (parse_args(argc, argv, &w))
		return 2;
	if (w.checkpoint) {
		struct sigaction sa = { .sa_handler = on_ckpt };
		int sigs[] = { SIGUSR1, SIGUSR2, SIGTERM, SIGINT, SIGHUP };
		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			sigaction(sigs[i], &sa, NULL);
	}
	total = (long)ceil(w.seconds / w.quantum - 1e-9);
	from = w.checkpoint ? work_barrier_ckpt_read(w.barrier.dir, w.job) : 0;
	if (from > total)
		from = total;
	cpu0 = work_burn_cpu_now();
	wall0 = work_burn_wall_now();
	for (done = from; done < total && !stop_asked;) {
		double q = fmin(w.quantum, w.seconds - done * w.quantum);
		double t0 = work_burn_wall_now();

		work_burn(q * w.need * w.speed);
		work_burn_sleep_until(t0 + q);
		done++;
		if (work_barrier_wait(&w.barrier, done, 0.02)) {
			fprintf(stderr, "dfrs-work: job %s rank %d: cannot write in %s: %s\n",
				w.job, w.barrier.rank, w.barrier.dir, strerror(errno));
			return 1;
		}
		if (ckpt_asked) {
			/* every rank has passed `done`: a valid restart point */
			if (work_barrier_ckpt_write(w.barrier.dir, w.job, done))
				fprintf(stderr, "dfrs-work: job %s: cannot write its checkpoint in %s: %s\n",
					w.job, w.barrier.dir, strerror(errno));
			ckpt_asked = 0;
		}
	}
	printf("dfrs-work: job %s rank %d quanta %ld/%ld from %ld cpu %.3f wall %.3f\n",
	       w.job, w.barrier.rank, done, total, from,
	       work_burn_cpu_now() - cpu0, work_burn_wall_now() - wall0);
	fflush(stdout);
	return done < total ? 143 : 0;
}
