// SPDX-License-Identifier: GPL-2.0
/*
 * runas - run a command as another user and group, for tests that check
 * what an unprivileged user may not do.
 *
 * usage: runas UID GID COMMAND [ARGS...]
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;
	gid_t gid;

	if (argc < 4) {
		fprintf(stderr, "usage: runas UID GID COMMAND [ARGS...]\n");
		return 2;
	}
	uid = (uid_t)strtoul(argv[1], NULL, 10);
	gid = (gid_t)strtoul(argv[2], NULL, 10);
	if (setgroups(0, NULL) || setgid(gid) || setuid(uid)) {
		perror("runas");
		return 126;
	}
	execvp(argv[3], argv + 3);
	perror("runas: exec");
	return 127;
}
