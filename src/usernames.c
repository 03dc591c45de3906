// SPDX-License-Identifier: GPL-2.0-only
/*
 * usernames - uid to user name, cached, through the sysroot (usernames.h).
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysroot.h"
#include "usernames.h"
#include "util.h"

static const char *add(struct usernames *u, uid_t uid, const char *name)
{
	struct username *e;

	if (array_room(&u->e, &u->cap, u->nr, sizeof(*u->e), 16, SIZE_MAX / sizeof(*u->e)))
		return NULL;
	e = &u->e[u->nr];
	e->uid = uid;
	e->name = strdup(name);
	if (!e->name)
		return NULL;
	u->nr++;
	return e->name;
}

static void load_tree_passwd(struct usernames *u)
{
	FILE *f = sysroot_fopen("/etc/passwd", "r");
	struct passwd *pw;

	u->tree_loaded = true;
	if (!f)
		return;
	while ((pw = fgetpwent(f)))
		if (!add(u, pw->pw_uid, pw->pw_name))
			break;
	fclose(f);
}

const char *usernames_get(struct usernames *u, uid_t uid, char *buf, size_t len)
{
	struct passwd *pw;
	const char *name;

	if (!sysroot_is_live() && !u->tree_loaded)
		load_tree_passwd(u);
	for (size_t i = 0; i < u->nr; i++)
		if (u->e[i].uid == uid)
			return u->e[i].name;
	snprintf(buf, len, "%u", (unsigned)uid);
	if (!sysroot_is_live())
		return buf;
	pw = getpwuid(uid);
	name = add(u, uid, pw ? pw->pw_name : buf);
	return name ? name : buf;
}

void usernames_free(struct usernames *u)
{
	for (size_t i = 0; i < u->nr; i++)
		free(u->e[i].name);
	free(u->e);
	memset(u, 0, sizeof(*u));
}
