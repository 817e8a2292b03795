/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text_mark.c - add, find and remove a mark word in a free text (see
 * text_mark.h).
 */
#include <stdlib.h>
#include <string.h>

#include "text_mark.h"

/* The next occurrence of mark as a whole word at or after from, or NULL. */
static const char *find_word(const char *text, const char *from,
			     const char *mark)
{
	size_t len = strlen(mark);
	const char *p;

	if (!len)
		return NULL;
	for (p = strstr(from, mark); p; p = strstr(p + 1, mark))
		if ((p == text || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
			return p;
	return NULL;
}

bool text_mark_has(const char *text, const char *mark)
{
	return text && find_word(text, text, mark) != NULL;
}

int text_mark_add(const char *text, const char *mark, char **out)
{
	size_t tl = text ? strlen(text) : 0, ml = strlen(mark);

	if (text_mark_has(text, mark) || !ml) {
		*out = tl ? strdup(text) : NULL;
		return tl && !*out ? -1 : 0;
	}
	if (!(*out = malloc(tl + ml + 2)))
		return -1;
	if (tl) {
		memcpy(*out, text, tl);
		(*out)[tl++] = ' ';
	}
	memcpy(*out + tl, mark, ml + 1);
	return 0;
}

int text_mark_remove(const char *text, const char *mark, char **out)
{
	size_t ml = strlen(mark), n = 0;
	const char *from, *p;
	char *s;

	*out = NULL;
	if (!text || !*text)
		return 0;
	if (!(s = malloc(strlen(text) + 1)))
		return -1;
	for (from = text; (p = find_word(text, from, mark)); from = p + ml) {
		size_t keep = (size_t)(p - from);
		/* the space between the previous word and the mark goes */
		if (keep && from[keep - 1] == ' ')
			keep--;
		memcpy(s + n, from, keep);
		n += keep;
	}
	strcpy(s + n, from);
	n += strlen(from);
	/* a mark that began the text leaves the next word's space */
	if (n && s[0] == ' ' && !(text[0] == ' '))
		memmove(s, s + 1, n--);
	if (!n) {
		free(s);
		return 0;
	}
	*out = s;
	return 0;
}

int text_mark_word(const char *text, const char *prefix, char *buf,
		   size_t len)
{
	size_t pl = strlen(prefix);

	for (const char *s = text; s && *s;) {
		size_t n;

		while (*s == ' ')
			s++;
		n = strcspn(s, " ");
		if (n && n >= pl && !strncmp(s, prefix, pl)) {
			if (len) {
				size_t c = n < len ? n : len - 1;
				memcpy(buf, s, c);
				buf[c] = 0;
			}
			return 1;
		}
		s += n;
	}
	return 0;
}
