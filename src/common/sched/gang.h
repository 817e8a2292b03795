/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gang.h - gang scheduling's Ousterhout matrix and its decisions
 * (Zhang et al. 2000), as plain C over plain
 * structs: MPL rows (time slices of a cycle) by one column per allocation
 * unit; a job of b units holds b columns of one row.  At every scheduling
 * event the driver (sim_gang.h) calls gang_compact() then gang_fill().
 *
 * On hosts of many CPUs (gang_matrix_t.hosts; doc/design.md, "The resource
 * model: CPUs, memory and GPUs") a column is a CPU, as Slurm's gang
 * time-slices the cores of select/cons_tres: jobs on disjoint CPUs of a
 * host share a row and run together, jobs whose CPUs overlap take turns.
 * A job's columns in a row are then chosen by sched_fit() on that row's
 * free CPUs, host by host, and its memory and GPUs are held on their hosts
 * in every row (a suspended job keeps them, as under Slurm's gang, so they
 * are never shared between rows).  A reservation (gang_fill's backfill)
 * still counts columns only.
 */
#ifndef DFRS_GANG_H
#define DFRS_GANG_H

#include <stddef.h>

#include "sched_engine.h"

typedef struct {
	int rows;		/* multiprogramming level (MPL) */
	int cols;		/* allocation units */
	int *cell;		/* rows x cols: job index, or -1 (free) */
	int *used;		/* per row: occupied columns */
	/* the hosts of the columns, or NULL (each column a host of one CPU
	 * without limits).  The caller's: hosts, slot_host and nhosts laid
	 * out (sched_hosts_layout) over nnodes = cols slots whose bg_job is
	 * -1; jobs[j] for gang job j with its nodes, req and alloc = its
	 * cols.  The matrix writes the slots' fg_job (the row being fitted)
	 * and the hosts' mem_fg and gpus_fg (held by the jobs in any row). */
	sched_state_t *hosts;
	int *scratch;		/* cols entries: columns a fit chose */
	int oom;		/* sched_fit ran out of memory */
} gang_matrix_t;

typedef struct {
	int nodes;		/* b: columns it needs */
	int row;		/* its row, or -1 (not in the matrix) */
	int *cols;		/* its b columns while in the matrix */
	double estimate;	/* seconds it is expected to run, < 0: none */
	double ran;		/* seconds it has run so far */
} gang_job_t;

typedef enum {
	GANG_START,		/* queued job placed in a row */
	GANG_MOVE,		/* to another row on the same columns (free) */
	GANG_MIGRATE,		/* to other columns of another row (option 2) */
} gang_action_t;

typedef struct {
	int job;
	gang_action_t action;
	int row;
} gang_decision_t;

typedef struct {
	gang_decision_t *items;
	size_t count, cap;
} gang_decisions_t;

/* rows x cols, all free: 0, or -1 (out of memory, or a size below 1). */
int gang_matrix_init(gang_matrix_t *m, int rows, int cols);
void gang_matrix_free(gang_matrix_t *m);

/* Rows holding at least one job. */
int gang_rows_used(const gang_matrix_t *m);

/* The first occupied row after row (cyclically), else row itself. */
int gang_next_row(const gang_matrix_t *m, int row);

/* Take job j out of the matrix (its row becomes -1). */
void gang_remove(gang_matrix_t *m, gang_job_t *jobs, int j);

/*
 * Zhang et al. 2000, section 2, compact phase: jobs outside the active row, from the
 * least to the most populated row and smallest job first, move to the most
 * populated row (at least as populated as theirs) where their columns are
 * free; failing that, when *migrate_budget covers their size, migrate
 * (option 2) to the free columns of such a row, spending their size from
 * the budget (Zhang et al.'s Q).  members lists the n jobs in the matrix.
 * Returns 0, or -1 when out of memory.
 */
int gang_compact(gang_matrix_t *m, gang_job_t *jobs, const int *members,
		 size_t n, int active, int *migrate_budget,
		 gang_decisions_t *out);

/*
 * Zhang et al. 2000, section 2, schedule phase: queue (job indices in arrival order)
 * placed FCFS, each into the first row with enough free columns, on that
 * row's first free columns.  Without backfill the first job that does not
 * fit stops the pass; with it, that job reserves the row where it can start
 * soonest (by the estimates of the row's jobs, in the row's own run time)
 * and later jobs may start if they do not delay it (EASY, per row).
 * Started jobs leave the queue (*nqueue shrinks, order kept).
 * Returns 0, or -1 when out of memory.
 */
int gang_fill(gang_matrix_t *m, gang_job_t *jobs, int *queue, size_t *nqueue,
	      int backfill, gang_decisions_t *out);

void gang_decisions_free(gang_decisions_t *d);

#endif
