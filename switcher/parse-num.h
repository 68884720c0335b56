/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse-num.h - strict parsing of whole numbers for the lab's guest tools.
 *
 * atoi() and a bare strtol() read "abc" as 0 and "10abc" as 10; a tool
 * that is given either must refuse it before doing anything.
 */
#ifndef LAB_PARSE_NUM_H
#define LAB_PARSE_NUM_H

#include <errno.h>
#include <stdlib.h>

/* A whole decimal number in [0, max], or -1. */
static inline long parse_num(const char *s, long max)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	return v;
}

#endif
