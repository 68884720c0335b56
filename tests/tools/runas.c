// SPDX-License-Identifier: GPL-2.0
/*
 * runas - run a command as another user and group, for tests that check
 * what an unprivileged user may not do.
 *
 * usage: runas UID GID COMMAND [ARGS...]
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* A whole decimal id below 2^31 (no sign, no junk), or -1. */
static int parse_id(const char *s, unsigned int *id)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v >= 0x7fffffffUL)
		return -1;
	*id = (unsigned int)v;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int uid, gid;

	if (argc < 4) {
		fprintf(stderr, "usage: runas UID GID COMMAND [ARGS...]\n");
		return 2;
	}
	if (parse_id(argv[1], &uid) || parse_id(argv[2], &gid)) {
		fprintf(stderr, "runas: UID and GID must be whole numbers, not '%s' '%s'\n",
			argv[1], argv[2]);
		return 2;
	}
	if (setgroups(0, NULL) || setgid(gid) || setuid(uid)) {
		perror("runas");
		return 126;
	}
	execvp(argv[3], argv + 3);
	perror("runas: exec");
	return 127;
}
