/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usernames - the name of a uid as the machine under the root names it:
 * the live user database, or a captured tree's own etc/passwd (the local
 * database would name a board's users wrongly). Looked up once per uid; a
 * uid without a name shows as its number.
 */
#ifndef RTLA_USERNAMES_H
#define RTLA_USERNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct username {
	uid_t uid;
	char *name;
};

struct usernames {
	struct username *e;
	size_t nr, cap;
	bool tree_loaded;
};

/* The name of UID, or its number written into BUF. */
const char *usernames_get(struct usernames *u, uid_t uid, char *buf, size_t len);
void usernames_free(struct usernames *u);

#endif
