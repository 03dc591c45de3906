/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fsutil - small file helpers shared by the commands: a folder and its
 * parents, and a file replaced whole (fsutil.c).
 */
#ifndef RTLA_FSUTIL_H
#define RTLA_FSUTIL_H

#include <stdio.h>
#include <sys/types.h>

/*
 * mkdir -p: DIR and every missing parent, each with MODE; a folder already
 * there is fine. 0 or -errno (-ENAMETOOLONG past PATH_MAX, -ENOTDIR where a
 * part of DIR is not a folder, -ENOENT for "").
 */
int fs_mkdir_p(const char *dir, mode_t mode);

/* The folder FILE is in, and its parents: fs_mkdir_p() of what is before the last '/'. */
int fs_mkdir_parents(const char *file, mode_t mode);

/*
 * Write PATH whole or not at all: FILL writes the text to TMP (NULL: PATH
 * with ".tmp" added), which is flushed, synced and renamed over PATH, so a
 * reader sees the old file or the new one, never half of one. On a failure
 * TMP is removed and PATH left as it was. Where TMP is NULL and PATH a
 * symbolic link, the file it names is replaced, beside that file. 0 or
 * -errno (-EIO where the stream failed without saying why).
 */
int fs_write_replace(const char *path, const char *tmp,
		     void (*fill)(FILE *f, const void *arg), const void *arg);
/* fs_write_replace() of LEN bytes of TEXT, made beforehand */
int fs_write_text(const char *path, const char *text, size_t len);

#endif
