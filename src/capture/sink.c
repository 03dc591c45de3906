// SPDX-License-Identifier: GPL-2.0-only
/*
 * sink - where a capture goes: a directory, or a gzip'd POSIX tar.
 *
 * Both are written beside DEST under ".NAME.rtla-partial.XXXXXX" and renamed
 * to DEST at the end, after the manifest and a flush: a failed or killed
 * capture never leaves something named DEST, and a leftover partial one
 * says what it is. The tar is pax (POSIX.1-2001): long names and the
 * security xattrs of captured files ride in pax records (SCHILY.xattr.*, as
 * GNU tar and bsdtar read them: extract with tar --xattrs).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "capture/capture.h"

struct capture_sink {
	bool tar;
	char dest[PATH_MAX];
	char partial[PATH_MAX];
	gzFile gz;
	int fd;			/* the partial directory, or the partial tar file */
	time_t now;
};

/* ".NAME.rtla-partial.XXXXXX" in DEST's directory. */
static int partial_name(struct capture_sink *s, const char *dest)
{
	char a[PATH_MAX], b[PATH_MAX];
	int n;

	if (strlen(dest) >= sizeof(a))
		return -ENAMETOOLONG;
	strcpy(a, dest);
	strcpy(b, dest);
	n = snprintf(s->partial, sizeof(s->partial), "%s/.%s.rtla-partial.XXXXXX", dirname(a),
		     basename(b));
	snprintf(s->dest, sizeof(s->dest), "%s", dest);
	return n >= (int)sizeof(s->partial) ? -ENAMETOOLONG : 0;
}

int capture_sink_dir_new(struct capture_sink **sp, const char *dest, const char **what)
{
	struct capture_sink *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	*what = "";
	ret = partial_name(s, dest);
	if (ret)
		goto out_free;
	if (!mkdtemp(s->partial)) {
		ret = -errno;
		*what = "cannot create the capture next to it";
		goto out_free;
	}
	s->fd = open(s->partial, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->fd < 0) {
		ret = -errno;
		rmdir(s->partial);
		goto out_free;
	}
	*sp = s;
	return 0;
out_free:
	free(s);
	return ret;
}

int capture_sink_tar_new(struct capture_sink **sp, const char *dest, const char **what)
{
	struct capture_sink *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	*what = "";
	s->tar = true;
	s->now = time(NULL);
	ret = partial_name(s, dest);
	if (ret)
		goto out_free;
	s->fd = mkostemp(s->partial, O_CLOEXEC);
	if (s->fd < 0) {
		ret = -errno;
		*what = "cannot create the capture next to it";
		goto out_free;
	}
	s->gz = gzdopen(dup(s->fd), "wb6");
	if (!s->gz) {
		ret = -ENOMEM;
		close(s->fd);
		unlink(s->partial);
		goto out_free;
	}
	*sp = s;
	return 0;
out_free:
	free(s);
	return ret;
}

/* ---- directory ---- */

/* mkdir -p of PATH's parents, relative to the partial directory. */
static int make_parents(struct capture_sink *s, const char *rel)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", rel);
	for (char *p = strchr(dir, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdirat(s->fd, dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= n;
	}
	return 0;
}

static int dir_file(struct capture_sink *s, const char *rel, const void *data, size_t len,
		    mode_t mode, const struct capture_xattr *xattrs, int nxattrs)
{
	int fd, ret = make_parents(s, rel);

	if (ret)
		return ret;
	fd = openat(s->fd, rel, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0)
		return errno == EEXIST ? 0 : -errno;
	ret = write_all(fd, data, len);
	for (int i = 0; !ret && i < nxattrs; i++)
		if (fsetxattr(fd, xattrs[i].name, xattrs[i].val, xattrs[i].len, 0))
			ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static int dir_link(struct capture_sink *s, const char *rel, const char *target)
{
	int ret = make_parents(s, rel);

	if (ret)
		return ret;
	if (symlinkat(target, s->fd, rel) && errno != EEXIST)
		return -errno;
	return 0;
}

/* ---- tar ---- */

struct tar_header {
	char name[100], mode[8], uid[8], gid[8], size[12], mtime[12], chksum[8], type;
	char linkname[100], magic[6], version[2], uname[32], gname[32];
	char devmajor[8], devminor[8], prefix[155], pad[12];
};

static int gz_write(struct capture_sink *s, const void *data, size_t len)
{
	while (len) {
		unsigned chunk = len > (1u << 30) ? 1u << 30 : len;
		int n = gzwrite(s->gz, data, chunk);
		int zerr;

		if (n <= 0) {
			gzerror(s->gz, &zerr);
			return zerr == Z_ERRNO && errno ? -errno : -EIO;
		}
		data = (const char *)data + n;
		len -= n;
	}
	return 0;
}

static int tar_pad(struct capture_sink *s, size_t len)
{
	static const char zeros[512];

	return len % 512 ? gz_write(s, zeros, 512 - len % 512) : 0;
}

static int tar_header(struct capture_sink *s, const char *name, char type, size_t size,
		      mode_t mode, const char *link)
{
	struct tar_header h;
	unsigned sum = 0;

	memset(&h, 0, sizeof(h));
	snprintf(h.name, sizeof(h.name), "%s", name);
	snprintf(h.mode, sizeof(h.mode), "%07o", (unsigned)mode & 07777);
	snprintf(h.uid, sizeof(h.uid), "%07o", 0);
	snprintf(h.gid, sizeof(h.gid), "%07o", 0);
	snprintf(h.size, sizeof(h.size), "%011llo", (unsigned long long)size);
	snprintf(h.mtime, sizeof(h.mtime), "%011llo", (unsigned long long)s->now);
	h.type = type;
	if (link)
		snprintf(h.linkname, sizeof(h.linkname), "%s", link);
	memcpy(h.magic, "ustar", 6);
	memcpy(h.version, "00", 2);
	memset(h.chksum, ' ', sizeof(h.chksum));
	for (size_t i = 0; i < sizeof(h); i++)
		sum += ((unsigned char *)&h)[i];
	snprintf(h.chksum, sizeof(h.chksum), "%06o", sum);
	return gz_write(s, &h, sizeof(h));
}

/* One pax record "LEN key=value\n", LEN counting itself. */
static size_t pax_record(char *out, size_t room, const char *key, const void *val, size_t vlen)
{
	size_t body = 1 + strlen(key) + 1 + vlen + 1, len = body + 1;

	while (len != body + snprintf(NULL, 0, "%zu", len))
		len = body + snprintf(NULL, 0, "%zu", len);
	if (len > room)
		return 0;
	int n = sprintf(out, "%zu %s=", len, key);

	memcpy(out + n, val, vlen);
	out[len - 1] = '\n';
	return len;
}

static int tar_entry(struct capture_sink *s, const char *rel, char type, const void *data,
		     size_t len, mode_t mode, const char *link, const struct capture_xattr *xattrs,
		     int nxattrs)
{
	char pax[4096], key[80];
	size_t plen = 0;
	int ret;

	if (strlen(rel) >= 100)
		plen += pax_record(pax + plen, sizeof(pax) - plen, "path", rel, strlen(rel));
	if (link && strlen(link) >= 100)
		plen += pax_record(pax + plen, sizeof(pax) - plen, "linkpath", link, strlen(link));
	for (int i = 0; i < nxattrs; i++) {
		snprintf(key, sizeof(key), "SCHILY.xattr.%s", xattrs[i].name);
		plen += pax_record(pax + plen, sizeof(pax) - plen, key, xattrs[i].val,
				   xattrs[i].len);
	}
	if (plen) {
		ret = tar_header(s, "PaxHeader", 'x', plen, 0644, NULL);
		if (!ret)
			ret = gz_write(s, pax, plen);
		if (!ret)
			ret = tar_pad(s, plen);
		if (ret)
			return ret;
	}
	ret = tar_header(s, rel, type, len, mode, link);
	if (!ret && len)
		ret = gz_write(s, data, len);
	if (!ret)
		ret = tar_pad(s, len);
	return ret;
}

/* ---- both ---- */

static const char *relative(const char *path)
{
	while (*path == '/')
		path++;
	return path;
}

int capture_sink_file(struct capture_sink *s, const char *path, const void *data, size_t len,
		      mode_t mode, const struct capture_xattr *xattrs, int nxattrs)
{
	if (s->tar)
		return tar_entry(s, relative(path), '0', data, len, mode, NULL, xattrs, nxattrs);
	return dir_file(s, relative(path), data, len, mode, xattrs, nxattrs);
}

int capture_sink_link(struct capture_sink *s, const char *path, const char *target)
{
	if (s->tar)
		return tar_entry(s, relative(path), '2', NULL, 0, 0777, target, NULL, 0);
	return dir_link(s, relative(path), target);
}

/* rm -r of what the directory sink wrote (it made nothing but files, links, dirs). */
static void remove_tree(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!d) {
		if (fd >= 0)
			close(fd);
		unlinkat(parent, name, 0);
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_DIR)
			remove_tree(dirfd(d), de->d_name);
		else
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
	unlinkat(parent, name, AT_REMOVEDIR);
}

void capture_sink_abort(struct capture_sink *s)
{
	if (!s)
		return;
	if (s->tar) {
		gzclose(s->gz);
		close(s->fd);
		unlink(s->partial);
	} else {
		close(s->fd);
		remove_tree(AT_FDCWD, s->partial);
	}
	free(s);
}

int capture_sink_finish(struct capture_sink *s, const void *manifest, size_t len)
{
	static const char zeros[1024];
	int ret;

	ret = capture_sink_file(s, "/" CAPTURE_MANIFEST, manifest, len, 0644, NULL, 0);
	if (s->tar && !ret)
		ret = gz_write(s, zeros, sizeof(zeros));
	if (s->tar && !ret) {
		ret = gzclose(s->gz) == Z_OK ? 0 : -EIO;
		s->gz = NULL;
		if (ret && errno)
			ret = -errno;
		if (!ret && fchmod(s->fd, 0644))
			ret = -errno;
	}
	/* a write the disk could not keep shows here, not after the rename */
	if (!ret && (s->tar ? fsync(s->fd) : syncfs(s->fd)))
		ret = -errno;
	if (!ret && !s->tar && fchmod(s->fd, 0755))
		ret = -errno;
	if (!ret && rename(s->partial, s->dest))
		ret = -errno;
	if (ret) {
		capture_sink_abort(s);	/* gzclose(NULL) is a no-op: the tar is closed */
		return ret;
	}
	close(s->fd);
	free(s);
	return 0;
}
