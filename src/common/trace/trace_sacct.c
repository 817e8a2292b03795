/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_sacct.c - a job history exported by Slurm's sacct with -P (and
 * optionally --delimiter=,): a header line naming the columns, in any
 * order, then one job per line.  doc/traces.md gives the command.
 */
#include <limits.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "trace_names.h"
#include "trace_parser.h"

#define SACCT_MAX_COLUMNS 256

/* The columns the reader uses; others are ignored. */
enum sacct_column {
	COL_JOBIDRAW, COL_JOBID, COL_SUBMIT, COL_START, COL_END, COL_ELAPSED,
	COL_ELAPSEDRAW, COL_ALLOCCPUS, COL_NCPUS, COL_REQCPUS, COL_TIMELIMIT,
	COL_TIMELIMITRAW, COL_STATE, COL_UID, COL_GID, COL_USER, COL_GROUP,
	COL_PARTITION, COL_REQMEM, COL_TOTALCPU, COL_ALLOCTRES, COL_REQTRES,
	COL_RESERVATION, COL_COUNT
};

static const char *const column_name[COL_COUNT] = {
	"JobIDRaw", "JobID", "Submit", "Start", "End", "Elapsed",
	"ElapsedRaw", "AllocCPUS", "NCPUS", "ReqCPUS", "Timelimit",
	"TimelimitRaw", "State", "UID", "GID", "User", "Group",
	"Partition", "ReqMem", "TotalCPU", "AllocTRES", "ReqTRES",
	"Reservation",
};

typedef struct {
	char delim;
	int trailing_delim;	/* written with -p: every line ends in delim */
	size_t ncols;
	int index[COL_COUNT];	/* column position, -1 if absent */
	trace_names_t users, groups, partitions;
} sacct_layout_t;

typedef struct {
	const char *text;
	size_t len;
} sacct_field_t;

static int is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Split a line at delim into at most max fields; returns the count, or
 * max + 1 if there are more. */
static size_t split_line(const trace_line_t *line, char delim,
			 sacct_field_t *field, size_t max)
{
	size_t n = 0, start = 0, i;

	for (i = 0; i <= line->len; i++) {
		if (i < line->len && line->text[i] != delim)
			continue;
		if (n == max)
			return max + 1;
		field[n].text = line->text + start;
		field[n].len = i - start;
		n++;
		start = i + 1;
	}
	return n;
}

static int column_of(const sacct_field_t *f)
{
	int c;

	for (c = 0; c < COL_COUNT; c++)
		if (strlen(column_name[c]) == f->len &&
		    !strncasecmp(column_name[c], f->text, f->len))
			return c;
	return -1;
}

static char header_delim(const trace_line_t *line)
{
	return memchr(line->text, '|', line->len) ? '|' : ',';
}

int trace_sacct_is_header(const trace_line_t *line)
{
	sacct_field_t field[SACCT_MAX_COLUMNS];
	size_t n, i;

	if (line->len == 0 || !is_letter(line->text[0]))
		return 0;
	n = split_line(line, header_delim(line), field, SACCT_MAX_COLUMNS);
	if (n > SACCT_MAX_COLUMNS)
		n = SACCT_MAX_COLUMNS;
	for (i = 0; i < n; i++) {
		int c = column_of(&field[i]);

		if (c == COL_JOBIDRAW || c == COL_JOBID)
			return 1;
	}
	return 0;
}

static int parse_header(trace_parser_t *p, const trace_line_t *line,
			sacct_layout_t *lay)
{
	sacct_field_t field[SACCT_MAX_COLUMNS + 1];
	size_t n, i;
	int c;

	for (c = 0; c < COL_COUNT; c++)
		lay->index[c] = -1;
	lay->delim = header_delim(line);
	n = split_line(line, lay->delim, field, SACCT_MAX_COLUMNS + 1);
	if (n > SACCT_MAX_COLUMNS + 1)	/* field[] holds only max + 1 */
		return trace_fail(p, line->number, "sacct header has more "
				  "than %d columns", SACCT_MAX_COLUMNS);
	if (n > 1 && field[n - 1].len == 0) {
		lay->trailing_delim = 1;
		n--;
	}
	if (n > SACCT_MAX_COLUMNS)
		return trace_fail(p, line->number, "sacct header has more "
				  "than %d columns", SACCT_MAX_COLUMNS);
	lay->ncols = n;
	for (i = 0; i < n; i++) {
		c = column_of(&field[i]);
		if (c < 0)
			continue;
		if (lay->index[c] >= 0)
			return trace_fail(p, line->number, "sacct header names "
					  "column %s twice", column_name[c]);
		lay->index[c] = (int)i;
	}
	if (lay->index[COL_JOBIDRAW] < 0 && lay->index[COL_JOBID] < 0)
		return trace_fail(p, line->number, "sacct header has no "
				  "JobIDRaw (or JobID) column");
	for (c = COL_SUBMIT; c <= COL_END; c++)
		if (lay->index[c] < 0)
			return trace_fail(p, line->number, "sacct header has "
					  "no %s column (doc/traces.md gives "
					  "the sacct command)", column_name[c]);
	if (lay->index[COL_ALLOCCPUS] < 0 && lay->index[COL_NCPUS] < 0 &&
	    lay->index[COL_REQCPUS] < 0)
		return trace_fail(p, line->number, "sacct header has no CPU "
				  "count column (AllocCPUS, NCPUS or ReqCPUS)");
	return 0;
}

/* One row being converted. */
typedef struct {
	trace_parser_t *p;
	const trace_line_t *line;
	const sacct_layout_t *lay;
	const sacct_field_t *field;
} sacct_row_t;

/* The field of column c, or NULL if the column is absent. */
static const sacct_field_t *cell(const sacct_row_t *r, int c)
{
	int i = r->lay->index[c];

	return i < 0 ? NULL : &r->field[i];
}

static int is_word(const sacct_field_t *f, const char *word)
{
	return f->len == strlen(word) && !strncasecmp(f->text, word, f->len);
}

static int bad_value(const sacct_row_t *r, int c, const char *expected)
{
	const sacct_field_t *f = cell(r, c);
	char q[32];

	trace_bad_line(r->p, r->line->number, "%s is not %s: '%s'",
		       column_name[c], expected,
		       trace_quote(f->text, f->len, q));
	return -1;
}

/* A timestamp column: 1 with *t set, 0 if Unknown/None/empty, -1 bad. */
static int time_cell(const sacct_row_t *r, int c, double *t)
{
	const sacct_field_t *f = cell(r, c);

	if (f->len == 0 || is_word(f, "Unknown") || is_word(f, "None"))
		return 0;
	if (trace_parse_timestamp(f->text, f->len, t) < 0)
		return bad_value(r, c, "a time (YYYY-MM-DDTHH:MM:SS)");
	return 1;
}

/* A count column (CPUs, UID): 1 with *v set, 0 if absent/empty, -1 bad. */
static int count_cell(const sacct_row_t *r, int c, long *v)
{
	const sacct_field_t *f = cell(r, c);

	if (!f || f->len == 0)
		return 0;
	if (trace_parse_integer(f->text, f->len, 0, INT_MAX, v) < 0)
		return bad_value(r, c, "a count");
	return 1;
}

/* Elapsed/TotalCPU style column: 1 with seconds, 0 absent/empty, -1 bad. */
static int duration_cell(const sacct_row_t *r, int c, double *s)
{
	const sacct_field_t *f = cell(r, c);

	if (!f || f->len == 0)
		return 0;
	if (trace_parse_duration(f->text, f->len, s) < 0)
		return bad_value(r, c, "a duration ([D-]HH:MM:SS)");
	return 1;
}

/* Job id: the leading digits; *is_step for "123.batch", "123_4.0". */
static int job_id(const sacct_row_t *r, long *id, int *is_step)
{
	int c = r->lay->index[COL_JOBIDRAW] >= 0 ? COL_JOBIDRAW : COL_JOBID;
	const sacct_field_t *f = cell(r, c);
	size_t n = 0;

	while (n < f->len && f->text[n] >= '0' && f->text[n] <= '9')
		n++;
	if (n == 0 || n > 15)
		return bad_value(r, c, "a job id");
	trace_parse_integer(f->text, n, 0, LONG_MAX, id);
	*is_step = memchr(f->text, '.', f->len) != NULL;
	return 0;
}

/* JobID 123_4 is a task of job array 123, 123+0 a component of
 * heterogeneous job 123: counted among the jobs kept, each replayed as a
 * job of its own (their JobIDRaw is a plain number). */
static void count_kind(const sacct_row_t *r, trace_t *t)
{
	const sacct_field_t *f = cell(r, COL_JOBID);

	if (!f)
		return;
	if (memchr(f->text, '_', f->len))
		t->array_jobs++;
	else if (memchr(f->text, '+', f->len))
		t->het_jobs++;
}

/* Timelimit / TimelimitRaw: seconds, or -1 for UNLIMITED, Partition_Limit,
 * empty.  Returns -1 on a malformed value. */
static int time_limit(const sacct_row_t *r, double *limit)
{
	int c = cell(r, COL_TIMELIMITRAW) ? COL_TIMELIMITRAW : COL_TIMELIMIT;
	const sacct_field_t *f = cell(r, c);
	long minutes;

	*limit = -1;
	if (!f || f->len == 0 || is_word(f, "UNLIMITED") ||
	    is_word(f, "Partition_Limit") || is_word(f, "INVALID"))
		return 0;
	if (c == COL_TIMELIMITRAW) {
		if (trace_parse_integer(f->text, f->len, 0, INT_MAX,
					&minutes) < 0)
			return bad_value(r, c, "a number of minutes");
		*limit = minutes * 60.0;
		return 0;
	}
	if (trace_parse_duration(f->text, f->len, limit) < 0)
		return bad_value(r, c, "a time limit ([D-]HH:MM:SS)");
	return 0;
}

/* SWF status from State's first word: 1 completed, 0 failed, 5 cancelled,
 * -1 for anything else (unfinished states are skipped by End anyway). */
static int swf_status(const sacct_row_t *r)
{
	static const char *const failed[] = {
		"FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
		"BOOT_FAIL", "DEADLINE", "PREEMPTED",
	};
	const sacct_field_t *f = cell(r, COL_STATE);
	sacct_field_t word;
	size_t i;

	if (!f)
		return -1;
	word = *f;
	for (i = 0; i < f->len; i++)
		if (f->text[i] == ' ' || f->text[i] == '+') {
			word.len = i;
			break;
		}
	if (is_word(&word, "COMPLETED"))
		return 1;
	if (is_word(&word, "CANCELLED"))
		return 5;
	for (i = 0; i < sizeof(failed) / sizeof(failed[0]); i++)
		if (is_word(&word, failed[i]))
			return 0;
	return -1;
}

/* ReqMem ("4000M", "1.50G", "0", old "4000Mc"/"4000Mn") in KB per CPU. */
static int req_mem(const sacct_row_t *r, int procs, double *kb)
{
	static const char units[] = "KMGTP";
	const sacct_field_t *f = cell(r, COL_REQMEM);
	size_t n;
	int per_cpu = 0;
	double v, scale = 1024;	/* no unit: megabytes */
	const char *u;

	*kb = -1;
	if (!f || f->len == 0)
		return 0;
	n = f->len;
	if (f->text[n - 1] == 'c' || f->text[n - 1] == 'n') {
		per_cpu = f->text[n - 1] == 'c';
		n--;
	}
	if (n > 0 && (u = memchr(units, f->text[n - 1], 5)) != NULL) {
		int k;

		scale = 1;
		for (k = 0; k < u - units; k++)
			scale *= 1024;
		n--;
	}
	if (trace_parse_number(f->text, n, &v) < 0 || v < 0 ||
	    !isfinite(v * scale))
		return bad_value(r, COL_REQMEM, "a memory size (e.g. 4000M)");
	*kb = v * scale;
	if (!per_cpu && procs > 0)
		*kb /= procs;
	return 0;
}

/* AllocTRES ("billing=4,cpu=4,gres/gpu=1,mem=8000M,node=1"): the nodes,
 * GPUs and memory (MB) the job held; a key absent leaves its field. */
static int alloc_tres(const sacct_row_t *r, trace_job_t *job)
{
	static const char units[] = "KMGTP";
	const sacct_field_t *f = cell(r, COL_ALLOCTRES);
	size_t i = 0;

	while (f && i < f->len) {
		size_t end = i, eq;
		while (end < f->len && f->text[end] != ',')
			end++;
		for (eq = i; eq < end && f->text[eq] != '='; eq++)
			;
		const char *key = f->text + i, *val = f->text + eq + 1;
		size_t klen = eq - i, vlen = eq < end ? end - eq - 1 : 0;
		long n;
		double v, scale = 1;	/* mem: MB */
		const char *u;
		if (klen == 4 && !memcmp(key, "node", 4)) {
			if (trace_parse_integer(val, vlen, 0, INT_MAX, &n) < 0)
				return bad_value(r, COL_ALLOCTRES,
						 "node=<count>");
			job->alloc_nodes = (int)n;
		} else if (klen == 8 && !memcmp(key, "gres/gpu", 8)) {
			if (trace_parse_integer(val, vlen, 0, INT_MAX, &n) < 0)
				return bad_value(r, COL_ALLOCTRES,
						 "gres/gpu=<count>");
			job->alloc_gpus = (int)n;
		} else if (klen == 3 && !memcmp(key, "mem", 3)) {
			if (vlen > 0 &&
			    (u = memchr(units, val[vlen - 1], 5)) != NULL) {
				static const double mb[] = { 1.0 / 1024, 1,
					1024, 1024.0 * 1024,
					1024.0 * 1024 * 1024 };
				scale = mb[u - units];
				vlen--;
			}
			if (trace_parse_number(val, vlen, &v) < 0 || v < 0 ||
			    !isfinite(v * scale))
				return bad_value(r, COL_ALLOCTRES,
						 "mem=<size> (e.g. 8000M)");
			job->alloc_mem_mb = v * scale;
		}
		i = end + 1;
	}
	/* a job that held GPUs names gres/gpu; one that did not, none */
	if (f && f->len > 0 && job->alloc_gpus < 0)
		job->alloc_gpus = 0;
	return 0;
}

/* User, Group, Partition: UID/GID number if there, else the name's. */
static int name_number(const sacct_row_t *r, int c, trace_names_t *names,
		       int *out)
{
	const sacct_field_t *f = cell(r, c);
	int n;

	if (!f || f->len == 0)
		return 0;
	n = trace_names_number(names, f->text, f->len);
	if (n < 0)
		return trace_fail(r->p, 0, "out of memory numbering %s names",
				  column_name[c]);
	*out = n;
	return 0;
}

static int cell_has(const sacct_row_t *r, int c, const char *s)
{
	const sacct_field_t *f = cell(r, c);
	size_t n = strlen(s);

	for (size_t i = 0; f && i + n <= f->len; i++)
		if (!memcmp(f->text + i, s, n))
			return 1;
	return 0;
}

/* What dfrs advise reports as blockers: array tasks (JobID 7_1), parts of
 * heterogeneous jobs (7+1), GRES, reservations. */
static void count_blockers(const sacct_row_t *r, trace_t *t)
{
	const sacct_field_t *f = cell(r, COL_RESERVATION);

	t->array_tasks += cell_has(r, COL_JOBID, "_");
	t->het_components += cell_has(r, COL_JOBID, "+");
	t->gres_jobs += cell_has(r, COL_ALLOCTRES, "gres/") ||
			cell_has(r, COL_REQTRES, "gres/");
	t->reservation_jobs += f && f->len > 0;
}

/* The partitions' names by number, kept in t for reports. */
static int keep_partition_names(trace_t *t, trace_names_t *names)
{
	if (!names->count)
		return 0;
	t->partition_names = calloc(names->count, sizeof(char *));
	if (!t->partition_names)
		return -1;
	t->npartition_names = names->count;
	for (size_t i = 0; i < names->cap; i++)
		if (names->name[i]) {
			t->partition_names[names->number[i] - 1] =
				names->name[i];
			names->name[i] = NULL;	/* moved */
		}
	return 0;
}

static int convert_row(sacct_row_t *r, sacct_layout_t *lay)
{
	trace_t *t = r->p->out;
	trace_job_t job;
	double submit = 0, start = 0, end = 0, elapsed = 0, total_cpu = 0;
	long alloc = 0, req = 0, uid = 0, gid = 0;
	int is_step = 0, has_submit = 0, has_start = 0, has_end = 0;
	int has_elapsed = 0, has_cpu = 0, has_alloc = 0, has_req = 0;
	int has_uid, has_gid;

	trace_job_init(&job, r->line->number);
	if (job_id(r, &job.id, &is_step) < 0 ||
	    (has_submit = time_cell(r, COL_SUBMIT, &submit)) < 0 ||
	    (has_start = time_cell(r, COL_START, &start)) < 0 ||
	    (has_end = time_cell(r, COL_END, &end)) < 0)
		return 0;
	if (cell(r, COL_ELAPSEDRAW)) {
		const sacct_field_t *f = cell(r, COL_ELAPSEDRAW);
		long s;

		has_elapsed = f->len > 0;
		if (has_elapsed && trace_parse_integer(f->text, f->len, 0,
						       LONG_MAX, &s) < 0)
			return bad_value(r, COL_ELAPSEDRAW, "seconds"), 0;
		elapsed = has_elapsed ? (double)s : 0;
	} else if ((has_elapsed = duration_cell(r, COL_ELAPSED,
						&elapsed)) < 0) {
		return 0;
	}
	has_alloc = count_cell(r, cell(r, COL_ALLOCCPUS) ? COL_ALLOCCPUS :
			       COL_NCPUS, &alloc);
	if (has_alloc < 0 || (has_req = count_cell(r, COL_REQCPUS, &req)) < 0)
		return 0;
	if (time_limit(r, &job.req_time) < 0 ||
	    (has_cpu = duration_cell(r, COL_TOTALCPU, &total_cpu)) < 0)
		return 0;
	if (has_alloc && alloc > 0)
		job.procs = (int)alloc;
	else if (has_req && req > 0)
		job.procs = (int)req;
	if (has_req)
		job.req_procs = (int)req;
	if (req_mem(r, job.procs, &job.req_mem_kb) < 0 ||
	    alloc_tres(r, &job) < 0)
		return 0;
	if (has_start && has_end && !has_elapsed) {
		if (end < start) {
			trace_bad_line(r->p, r->line->number,
				       "End is before Start");
			return 0;
		}
		elapsed = end - start;
	}
	job.status = swf_status(r);
	if ((has_uid = count_cell(r, COL_UID, &uid)) < 0 ||
	    (has_gid = count_cell(r, COL_GID, &gid)) < 0)
		return 0;
	if (has_uid)
		job.user = (int)uid;
	else if (name_number(r, COL_USER, &lay->users, &job.user) < 0)
		return -1;
	if (has_gid)
		job.group = (int)gid;
	else if (name_number(r, COL_GROUP, &lay->groups, &job.group) < 0)
		return -1;
	if (name_number(r, COL_PARTITION, &lay->partitions,
			&job.partition) < 0)
		return -1;

	if (is_step) {
		trace_skip(r->p, &t->skipped_steps);
		return 0;
	}
	count_blockers(r, t);
	if (!has_submit) {
		trace_skip(r->p, &t->skipped_no_submit);
		return 0;
	}
	if (!has_end) {
		trace_skip(r->p, &t->skipped_unfinished);
		return 0;
	}
	if (!has_start) {
		trace_skip(r->p, &t->skipped_no_runtime);
		return 0;
	}
	if (job.procs < 1) {
		trace_skip(r->p, &t->skipped_no_procs);
		return 0;
	}
	job.submit = submit;
	job.wait = start >= submit ? start - submit : 0;
	job.runtime = elapsed;
	if (has_cpu && total_cpu > 0)	/* 0 with -X: "not reported" */
		job.cpu_used = total_cpu / job.procs;
	if (job.req_time > 0)
		t->has_req_time = 1;
	count_kind(r, t);
	return trace_add_job(r->p, &job);
}

static int parse_rows(trace_parser_t *p, const char *data, size_t len,
		      size_t pos, size_t number, sacct_layout_t *lay)
{
	sacct_field_t field[SACCT_MAX_COLUMNS + 1];
	trace_line_t line;

	while (!p->failed && trace_next_line(data, len, &pos, &number, &line)) {
		sacct_row_t row = { p, &line, lay, field };
		size_t n;

		if (line.len == 0)
			continue;
		if (lay->trailing_delim && line.text[line.len - 1] == lay->delim)
			line.len--;
		n = split_line(&line, lay->delim, field, lay->ncols);
		if (n != lay->ncols) {
			trace_bad_line(p, line.number, "has %s%zu fields, the "
				       "sacct header has %zu",
				       n > lay->ncols ? "more than " : "",
				       n > lay->ncols ? lay->ncols : n,
				       lay->ncols);
			continue;
		}
		convert_row(&row, lay);
	}
	return p->failed ? -1 : 0;
}

int trace_sacct_parse(trace_parser_t *p, const char *data, size_t len)
{
	sacct_layout_t lay;
	size_t pos = 0, number = 0;
	trace_line_t line;
	int rc = -1, found = 0;

	memset(&lay, 0, sizeof(lay));
	memset(&line, 0, sizeof(line));
	while (trace_next_line(data, len, &pos, &number, &line)) {
		size_t i = 0;

		while (i < line.len && (line.text[i] == ' ' ||
					line.text[i] == '\t'))
			i++;
		if (i < line.len && line.text[i] != ';') {
			found = 1;
			break;	/* blank lines and comments before it */
		}
	}
	if (!found)
		rc = trace_fail(p, 0, "no sacct header line");
	else if (parse_header(p, &line, &lay) == 0)
		rc = parse_rows(p, data, len, pos, number, &lay);
	if (rc == 0 && keep_partition_names(p->out, &lay.partitions) < 0)
		rc = trace_fail(p, 0, "out of memory keeping partition names");
	trace_names_free(&lay.users);
	trace_names_free(&lay.groups);
	trace_names_free(&lay.partitions);
	return rc;
}
