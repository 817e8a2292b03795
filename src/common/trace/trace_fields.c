/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace_fields.c - conversions of single trace fields: decimal numbers
 * (SWF), Slurm durations ("1-02:03:04", "05:06") and sacct timestamps
 * ("2024-01-02T03:04:05").  Each takes a (text, length) pair that need not
 * be NUL-terminated and refuses anything it does not fully consume.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace_parser.h"

#define NUMBER_MAX_CHARS 63

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Count the digits at text[i..len). */
static size_t digits_at(const char *text, size_t len, size_t i)
{
	size_t n = 0;

	while (i + n < len && is_digit(text[i + n]))
		n++;
	return n;
}

int trace_parse_number(const char *text, size_t len, double *value)
{
	char buf[NUMBER_MAX_CHARS + 1];
	size_t i = 0, int_digits, frac_digits = 0;
	char *end;
	double v;

	if (len == 0 || len > NUMBER_MAX_CHARS)
		return -1;
	if (text[i] == '+' || text[i] == '-')
		i++;
	int_digits = digits_at(text, len, i);
	i += int_digits;
	if (i < len && text[i] == '.') {
		i++;
		frac_digits = digits_at(text, len, i);
		i += frac_digits;
	}
	if (int_digits + frac_digits == 0)
		return -1;
	if (i < len && (text[i] == 'e' || text[i] == 'E')) {
		size_t exp_digits;

		i++;
		if (i < len && (text[i] == '+' || text[i] == '-'))
			i++;
		exp_digits = digits_at(text, len, i);
		if (exp_digits == 0)
			return -1;
		i += exp_digits;
	}
	if (i != len)
		return -1;
	memcpy(buf, text, len);
	buf[len] = '\0';
	v = strtod(buf, &end);
	if (end != buf + len || !isfinite(v))
		return -1;
	*value = v;
	return 0;
}

int trace_parse_integer(const char *text, size_t len, long min, long max,
			long *value)
{
	double v;

	if (trace_parse_number(text, len, &v) < 0)
		return -1;
	if (v != floor(v) || v < (double)min || v > (double)max)
		return -1;
	*value = (long)v;
	return 0;
}

/* An unsigned run of at most 9 digits at text[*i..len), advancing *i. */
static int read_count(const char *text, size_t len, size_t *i, double *out)
{
	size_t n = digits_at(text, len, *i), k;
	double v = 0;

	if (n == 0 || n > 9)
		return -1;
	for (k = 0; k < n; k++)
		v = v * 10 + (text[*i + k] - '0');
	*i += n;
	*out = v;
	return 0;
}

int trace_parse_duration(const char *text, size_t len, double *seconds)
{
	double part[3], days = 0, frac = 0;
	size_t i = 0, nparts = 0;
	const char *dash = memchr(text, '-', len);

	if (dash) {
		if (read_count(text, len, &i, &days) < 0 || text + i != dash)
			return -1;
		i++;
	}
	for (;;) {
		if (read_count(text, len, &i, &part[nparts]) < 0)
			return -1;
		nparts++;
		if (i < len && text[i] == ':' && nparts < 3) {
			i++;
			continue;
		}
		break;
	}
	if (i < len && text[i] == '.') {
		size_t fdigits, k;
		double scale = 0.1;

		i++;
		fdigits = digits_at(text, len, i);
		if (fdigits == 0 || fdigits > 9)
			return -1;
		for (k = 0; k < fdigits; k++, scale /= 10)
			frac += (text[i + k] - '0') * scale;
		i += fdigits;
	}
	if (i != len)
		return -1;
	if (dash) {		/* D-H, D-H:M, D-H:M:S */
		double h = part[0], m = nparts > 1 ? part[1] : 0;
		double s = nparts > 2 ? part[2] : 0;

		*seconds = days * 86400 + h * 3600 + m * 60 + s;
	} else if (nparts == 1) {	/* M */
		*seconds = part[0] * 60;
	} else if (nparts == 2) {	/* M:S */
		*seconds = part[0] * 60 + part[1];
	} else {		/* H:M:S */
		*seconds = part[0] * 3600 + part[1] * 60 + part[2];
	}
	*seconds += frac;
	return 0;
}

/* Digits text[at..at+n) as a number; -1 if any is not a digit. */
static long fixed_digits(const char *text, size_t at, size_t n)
{
	long v = 0;
	size_t k;

	for (k = 0; k < n; k++) {
		if (!is_digit(text[at + k]))
			return -1;
		v = v * 10 + (text[at + k] - '0');
	}
	return v;
}

static int is_leap(long y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days from 0001-01-01 to y-01-01 in the proleptic Gregorian calendar. */
static long days_before_year(long y)
{
	y -= 1;
	return y * 365 + y / 4 - y / 100 + y / 400;
}

int trace_parse_timestamp(const char *text, size_t len, double *seconds)
{
	static const int month_days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	long y, mo, d, h, mi, s, day_of_year, k;

	if (len != 19 || text[4] != '-' || text[7] != '-' ||
	    (text[10] != 'T' && text[10] != ' ') || text[13] != ':' ||
	    text[16] != ':')
		return -1;
	y = fixed_digits(text, 0, 4);
	mo = fixed_digits(text, 5, 2);
	d = fixed_digits(text, 8, 2);
	h = fixed_digits(text, 11, 2);
	mi = fixed_digits(text, 14, 2);
	s = fixed_digits(text, 17, 2);
	if (y < 1900 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 ||
	    mi < 0 || mi > 59 || s < 0 || s > 60)
		return -1;
	if (d > month_days[mo - 1] + (mo == 2 && is_leap(y)))
		return -1;
	day_of_year = d - 1;
	for (k = 1; k < mo; k++)
		day_of_year += month_days[k - 1] + (k == 2 && is_leap(y));
	*seconds = (double)(days_before_year(y) - days_before_year(1970) +
			    day_of_year) * 86400.0 +
		   (double)(h * 3600 + mi * 60 + s);
	return 0;
}
