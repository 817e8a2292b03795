/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gang.c - the Ousterhout matrix of gang scheduling and the decisions
 * taken on it (gang.h), after Zhang et al. 2000 (Franke, Moreira,
 * Sivasubramaniam, "The impact of migration on parallel job scheduling for
 * distributed systems"):
 *
 *   section 1: the matrix, MPL rows (virtual machines, one time slice each
 *     per cycle) by one column per node; a job's tasks share one row;
 *   section 2, basic algorithm: at every arrival or departure, jobs keep
 *     their nodes, the matrix is compacted (non-conflicting jobs share a
 *     row), then the queue is scheduled FCFS, with backfilling looking past
 *     the first job that does not fit (each row a target for EASY, as in
 *     Zhang et al.'s reference [18]);
 *   section 2, migration: option 2 (move job A to free nodes of row p, the
 *     other jobs of p undisturbed), used in the compact phase, at most Q
 *     migrated tasks per time slice.  Option 1 (evict the jobs at A's nodes
 *     in row p and replicate A) needs the expansion phase's replication,
 *     which this matrix does not model: a job holds exactly one row.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gang.h"

int gang_matrix_init(gang_matrix_t *m, int rows, int cols)
{
	*m = (gang_matrix_t){ 0 };
	if (rows < 1 || cols < 1)
		return -1;
	m->cell = malloc((size_t)rows * (size_t)cols * sizeof(*m->cell));
	m->used = calloc((size_t)rows, sizeof(*m->used));
	m->scratch = malloc((size_t)cols * sizeof(*m->scratch));
	if (!m->cell || !m->used || !m->scratch) {
		gang_matrix_free(m);
		return -1;
	}
	m->rows = rows;
	m->cols = cols;
	for (size_t i = 0; i < (size_t)rows * (size_t)cols; i++)
		m->cell[i] = -1;
	return 0;
}

void gang_matrix_free(gang_matrix_t *m)
{
	free(m->cell);
	free(m->used);
	free(m->scratch);
	*m = (gang_matrix_t){ 0 };
}

void gang_decisions_free(gang_decisions_t *d)
{
	free(d->items);
	*d = (gang_decisions_t){ 0 };
}

static int *row_cells(const gang_matrix_t *m, int row)
{
	return m->cell + (size_t)row * (size_t)m->cols;
}

static int row_free(const gang_matrix_t *m, int row)
{
	return m->cols - m->used[row];
}

int gang_rows_used(const gang_matrix_t *m)
{
	int k = 0;
	for (int r = 0; r < m->rows; r++)
		k += m->used[r] > 0;
	return k;
}

int gang_next_row(const gang_matrix_t *m, int row)
{
	for (int i = 1; i < m->rows; i++) {
		int r = (row + i) % m->rows;
		if (m->used[r] > 0)
			return r;
	}
	return row;
}

static int push(gang_decisions_t *d, int job, gang_action_t action, int row)
{
	if (d->count == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 16;
		gang_decision_t *items = realloc(d->items,
						 cap * sizeof(*items));
		if (!items)
			return -1;
		d->items = items;
		d->cap = cap;
	}
	d->items[d->count++] = (gang_decision_t){ job, action, row };
	return 0;
}

/* Put job j into row on the columns in jobs[j].cols; on hosts its memory
 * and GPUs are held there from now on. */
static void occupy(gang_matrix_t *m, gang_job_t *jobs, int j, int row)
{
	int *cells = row_cells(m, row);
	for (int p = 0; p < jobs[j].nodes; p++)
		cells[jobs[j].cols[p]] = j;
	m->used[row] += jobs[j].nodes;
	jobs[j].row = row;
	if (m->hosts)
		sched_hosts_account(m->hosts, (size_t)j, SCHED_TIER_FG, 1);
}

/* Does job j fit row now: enough free columns and, on hosts, sched_fit's
 * columns of the row (into cols) where its memory and GPUs fit what the
 * jobs of every row leave. */
static int row_takes(gang_matrix_t *m, int row, const gang_job_t *job,
		     int j, int *cols)
{
	if (row_free(m, row) < job->nodes)
		return 0;
	if (!m->hosts)
		return 1;
	const int *cells = row_cells(m, row);
	for (int c = 0; c < m->cols; c++)
		m->hosts->nodes[c].fg_job = cells[c];
	int fit = sched_fit(m->hosts, NULL, (size_t)j, SCHED_TIER_FG, NULL,
			    cols);
	if (fit < 0)
		m->oom = 1;
	return fit > 0;
}

/* Put job j into row on the row's first free columns, on hosts
 * sched_fit's (it fits). */
static void occupy_first_free(gang_matrix_t *m, gang_job_t *jobs, int j,
			      int row)
{
	const int *cells = row_cells(m, row);
	int p = 0;
	if (m->hosts) {
		if (!row_takes(m, row, &jobs[j], j, jobs[j].cols))
			return;	/* out of memory (m->oom) */
		occupy(m, jobs, j, row);
		return;
	}
	for (int c = 0; c < m->cols && p < jobs[j].nodes; c++)
		if (cells[c] < 0)
			jobs[j].cols[p++] = c;
	occupy(m, jobs, j, row);
}

void gang_remove(gang_matrix_t *m, gang_job_t *jobs, int j)
{
	if (jobs[j].row < 0)
		return;
	if (m->hosts)
		sched_hosts_account(m->hosts, (size_t)j, SCHED_TIER_FG, -1);
	int *cells = row_cells(m, jobs[j].row);
	for (int p = 0; p < jobs[j].nodes; p++)
		cells[jobs[j].cols[p]] = -1;
	m->used[jobs[j].row] -= jobs[j].nodes;
	jobs[j].row = -1;
}

static int cols_free(const gang_matrix_t *m, int row, const gang_job_t *job)
{
	const int *cells = row_cells(m, row);
	for (int p = 0; p < job->nodes; p++)
		if (cells[job->cols[p]] >= 0)
			return 0;
	return 1;
}

/* --- compact phase ------------------------------------------------------ */

typedef struct {
	int used, nodes, job;
} compact_key_t;

static int by_compact_order(const void *a, const void *b)
{
	const compact_key_t *x = a, *y = b;
	if (x->used != y->used)
		return x->used < y->used ? -1 : 1;
	if (x->nodes != y->nodes)
		return x->nodes < y->nodes ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

/*
 * The most populated row other than job j's, at least as populated as its
 * own, that takes j on its columns (same_cols) or on any free columns.
 */
static int compact_target(gang_matrix_t *m, const gang_job_t *jobs,
			  int j, int same_cols)
{
	int src = jobs[j].row, best = -1;
	for (int p = 0; p < m->rows; p++) {
		if (p == src || m->used[p] < m->used[src])
			continue;
		if (same_cols ? !cols_free(m, p, &jobs[j])
			      : !row_takes(m, p, &jobs[j], j, m->scratch))
			continue;
		if (best < 0 || m->used[p] > m->used[best])
			best = p;
	}
	return best;
}

/* Move job j to row p, on its columns or (migrate) p's first free ones. */
static int move_job(gang_matrix_t *m, gang_job_t *jobs, int j, int p,
		    int migrate, gang_decisions_t *out)
{
	gang_remove(m, jobs, j);
	if (migrate)
		occupy_first_free(m, jobs, j, p);
	else
		occupy(m, jobs, j, p);
	return push(out, j, migrate ? GANG_MIGRATE : GANG_MOVE, p);
}

int gang_compact(gang_matrix_t *m, gang_job_t *jobs, const int *members,
		 size_t n, int active, int *migrate_budget,
		 gang_decisions_t *out)
{
	compact_key_t *order = malloc((n ? n : 1) * sizeof(*order));
	if (!order)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int j = members[i];
		order[i] = (compact_key_t){ m->used[jobs[j].row],
					    jobs[j].nodes, j };
	}
	qsort(order, n, sizeof(*order), by_compact_order);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		int j = order[i].job;
		if (jobs[j].row == active)
			continue;	/* running now: stays for its slice */
		int p = compact_target(m, jobs, j, 1);
		if (p >= 0) {
			rc = move_job(m, jobs, j, p, 0, out);
			continue;
		}
		if (*migrate_budget < jobs[j].nodes)
			continue;
		p = compact_target(m, jobs, j, 0);
		if (p >= 0) {
			*migrate_budget -= jobs[j].nodes;
			rc = move_job(m, jobs, j, p, 1, out);
		}
	}
	free(order);
	return m->oom ? -1 : rc;
}

/* --- schedule phase ----------------------------------------------------- */

static double estimate_left(const gang_job_t *job)
{
	if (job->estimate < 0)
		return INFINITY;
	return job->estimate > job->ran ? job->estimate - job->ran : 0;
}

static int first_fit(gang_matrix_t *m, const gang_job_t *jobs, int j)
{
	for (int r = 0; r < m->rows; r++)
		if (row_takes(m, r, &jobs[j], j, m->scratch))
			return r;
	return -1;
}

typedef struct {
	int row;		/* where the blocked head job will start */
	double shadow;		/* after this much of that row's run time */
	int extra;		/* columns of that row it will not need */
} gang_reservation_t;

typedef struct {
	double left;		/* estimated run time left */
	int nodes;
} expected_end_t;

static int by_left(const void *a, const void *b)
{
	double x = ((const expected_end_t *)a)->left;
	double y = ((const expected_end_t *)b)->left;
	return (x > y) - (x < y);
}

/*
 * When a job of nodes columns fits in row, in the row's own run time (all
 * its jobs progress together), and the columns it leaves then; ends[] has
 * room for cols entries.
 */
static void row_shadow(const gang_matrix_t *m, const gang_job_t *jobs,
		       int row, int nodes, expected_end_t *ends,
		       gang_reservation_t *res)
{
	const int *cells = row_cells(m, row);
	size_t count = 0;
	for (int c = 0; c < m->cols; c++) {
		int j = cells[c];
		if (j >= 0 && jobs[j].cols[0] == c)	/* each job once */
			ends[count++] = (expected_end_t){
				estimate_left(&jobs[j]), jobs[j].nodes };
	}
	qsort(ends, count, sizeof(*ends), by_left);
	*res = (gang_reservation_t){ row, INFINITY, 0 };
	int avail = row_free(m, row);
	for (size_t k = 0; k < count; k++) {
		avail += ends[k].nodes;
		if (avail >= nodes) {
			res->shadow = ends[k].left;
			res->extra = avail - nodes;
			return;
		}
	}
}

/* The head job's reservation: the row where it starts soonest. */
static int reserve(const gang_matrix_t *m, const gang_job_t *jobs,
		   int nodes, gang_reservation_t *best)
{
	expected_end_t *ends = malloc((size_t)m->cols * sizeof(*ends));
	if (!ends)
		return -1;
	for (int r = 0; r < m->rows; r++) {
		gang_reservation_t res;
		row_shadow(m, jobs, r, nodes, ends, &res);
		if (r == 0 || res.shadow < best->shadow)
			*best = res;
	}
	free(ends);
	return 0;
}

/* The first row that takes job j now without delaying the reservation. */
static int backfill_row(gang_matrix_t *m, const gang_job_t *jobs, int j,
			gang_reservation_t *res)
{
	const gang_job_t *job = &jobs[j];

	for (int r = 0; r < m->rows; r++) {
		if (!row_takes(m, r, job, j, m->scratch))
			continue;
		if (r != res->row)
			return r;
		int before_shadow = job->estimate >= 0 &&
				    job->estimate <= res->shadow;
		if (before_shadow)
			return r;
		if (job->nodes <= res->extra) {
			res->extra -= job->nodes;
			return r;
		}
	}
	return -1;
}

int gang_fill(gang_matrix_t *m, gang_job_t *jobs, int *queue, size_t *nqueue,
	      int backfill, gang_decisions_t *out)
{
	gang_reservation_t res = { -1, INFINITY, 0 };
	size_t kept = 0, i = 0;
	int rc = 0;
	for (; i < *nqueue && !rc; i++) {
		int j = queue[i];
		int row;
		if (res.row < 0) {
			row = first_fit(m, jobs, j);
			if (row < 0 && !backfill)
				break;	/* FCFS: the head blocks the rest */
			if (row < 0)
				rc = reserve(m, jobs, jobs[j].nodes, &res);
		} else {
			row = backfill_row(m, jobs, j, &res);
		}
		if (row < 0) {
			queue[kept++] = j;
			continue;
		}
		occupy_first_free(m, jobs, j, row);
		rc = push(out, j, GANG_START, row);
	}
	for (; i < *nqueue; i++)
		queue[kept++] = queue[i];
	*nqueue = kept;
	return m->oom ? -1 : rc;
}
