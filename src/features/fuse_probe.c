// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuse_probe - what the kernel offers at FUSE INIT, asked for real.
 *
 * The flags a FUSE server may use are those the kernel sends in its INIT
 * request, and nothing else tells them: no file shows them, and the kernel
 * version says nothing of a distribution's backports. So a child process
 * mounts a FUSE file system of its own, reads the INIT request from
 * /dev/fuse, answers it and unmounts. The child has a mount namespace of its
 * own with every mount private and a tmpfs over /tmp that only it sees: the
 * FUSE mount is never visible to another namespace, and when the child ends,
 * however it ends (it also dies with rtla, PR_SET_PDEATHSIG), the namespace
 * and every mount in it go with it.
 *
 * The protocol structures are written out here from the FUSE ABI (they are
 * stable: fields are only ever appended), so that the probe knows the flags
 * of kernels newer than the headers it was built with.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "features/child.h"
#include "features/features.h"
#include "sysroot.h"
#include "util.h"

#define FUSE_OP_INIT	26
#define FUSE_INIT_EXT_BIT	30
#define FUSE_CREATE_SUPP_GROUP_BIT	34	/* in flags2: 1ULL << 34 of the 64-bit flags */
#define FUSE_READ_MIN	8192	/* the kernel refuses reads into a smaller buffer */

struct fuse_in_hdr {
	uint32_t len, opcode;
	uint64_t unique, nodeid;
	uint32_t uid, gid, pid;
	uint16_t total_extlen, padding;
};

struct fuse_init_in_msg {
	uint32_t major, minor, max_readahead, flags;
	uint32_t flags2, unused[11];	/* only with FUSE_INIT_EXT (7.36) */
};

struct fuse_out_hdr {
	uint32_t len;
	int32_t error;
	uint64_t unique;
};

struct fuse_init_out_msg {
	uint32_t major, minor, max_readahead, flags;
	uint16_t max_background, congestion_threshold;
	uint32_t max_write, time_gran;
	uint16_t max_pages, map_alignment;
	uint32_t flags2, unused[7];
};

/* Bit N of the 64-bit flags (flags2 is bits 32-63), from include/uapi/linux/fuse.h. */
static const char *const flag_names[] = {
	"ASYNC_READ", "POSIX_LOCKS", "FILE_OPS", "ATOMIC_O_TRUNC", "EXPORT_SUPPORT",
	"BIG_WRITES", "DONT_MASK", "SPLICE_WRITE", "SPLICE_MOVE", "SPLICE_READ",
	"FLOCK_LOCKS", "HAS_IOCTL_DIR", "AUTO_INVAL_DATA", "DO_READDIRPLUS",
	"READDIRPLUS_AUTO", "ASYNC_DIO", "WRITEBACK_CACHE", "NO_OPEN_SUPPORT",
	"PARALLEL_DIROPS", "HANDLE_KILLPRIV", "POSIX_ACL", "ABORT_ERROR", "MAX_PAGES",
	"CACHE_SYMLINKS", "NO_OPENDIR_SUPPORT", "EXPLICIT_INVAL_DATA", "MAP_ALIGNMENT",
	"SUBMOUNTS", "HANDLE_KILLPRIV_V2", "SETXATTR_EXT", "INIT_EXT", "INIT_RESERVED",
	"SECURITY_CTX", "HAS_INODE_DAX", "CREATE_SUPP_GROUP", "HAS_EXPIRE_ONLY",
	"DIRECT_IO_ALLOW_MMAP", "PASSTHROUGH", "NO_EXPORT_SUPPORT", "HAS_RESEND",
	"ALLOW_IDMAP", "OVER_IO_URING", "REQUEST_TIMEOUT",
};
#define NR_FLAG_NAMES ARRAY_SIZE(flag_names)

void fuse_flag_names(uint64_t flags, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned bit = 0; bit < 64 && off < len; bit++) {
		if (!(flags & (1ULL << bit)))
			continue;
		if (bit < NR_FLAG_NAMES)
			off += snprintf(buf + off, len - off, "%s%s", off ? " " : "", flag_names[bit]);
		else
			off += snprintf(buf + off, len - off, "%sbit%u", off ? " " : "", bit);
	}
}

static int fail(struct fuse_init_info *info, const char *step)
{
	info->err = -errno;
	snprintf(info->step, sizeof(info->step), "%s", step);
	return 0;
}

/* Read one request from the device, retrying what the kernel says to retry. */
static ssize_t read_request(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && (errno == EINTR || errno == ENOENT));
	return n;
}

static int fuse_child(void *out, void *arg)
{
	struct fuse_init_info *info = out;
	static char buf[FUSE_READ_MIN + 4096];
	const struct fuse_in_hdr *in = (const void *)buf;
	const struct fuse_init_in_msg *init = (const void *)(buf + sizeof(*in));
	struct {
		struct fuse_out_hdr hdr;
		struct fuse_init_out_msg init;
	} reply;
	char opts[128], mnt[64];
	const char *tmp;
	ssize_t n;
	int fd;

	memset(info, 0, sizeof(*info));
	tmp = feat_private_tmp();
	if (!tmp)
		return fail(info, "private mount namespace");
	snprintf(mnt, sizeof(mnt), "%s/fuse", tmp);
	if (mkdir(mnt, 0700))
		return fail(info, "mkdir on the private tmpfs");
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail(info, "open /dev/fuse");
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=%u,group_id=%u", fd,
		 getuid(), getgid());
	if (mount("rtla-features", mnt, "fuse.rtla-features", MS_NOSUID | MS_NODEV, opts))
		return fail(info, "mount");
	/* the tests stop the probe here, with the mount in place, and kill it */
	if (getenv("RTLA_TEST_FUSE_STOP"))
		raise(SIGSTOP);
	n = read_request(fd, buf, sizeof(buf));
	if (n < 0)
		return fail(info, "read INIT");
	if ((size_t)n < sizeof(*in) + 16 || in->opcode != FUSE_OP_INIT) {
		errno = EPROTO;
		return fail(info, "read INIT");
	}
	info->major = init->major;
	info->minor = init->minor;
	info->flags = init->flags;
	if ((init->flags & (1u << FUSE_INIT_EXT_BIT)) && (size_t)n >= sizeof(*in) + sizeof(*init))
		info->flags |= (uint64_t)init->flags2 << 32;
	info->total_extlen = in->total_extlen;

	/* accept the kernel's version with no optional feature: the mount works */
	memset(&reply, 0, sizeof(reply));
	reply.hdr.len = sizeof(reply);
	reply.hdr.unique = in->unique;
	reply.init.major = init->major;
	reply.init.minor = init->minor;
	reply.init.max_write = 4096;
	reply.init.time_gran = 1;
	if (write(fd, &reply, sizeof(reply)) != sizeof(reply))
		return fail(info, "answer INIT");
	if (umount2(mnt, MNT_DETACH))
		return fail(info, "umount");
	close(fd);
	return 0;
}

/* The probe runs once; every FUSE row reads its answer. */
static const struct fuse_init_info *probe_once(struct feat_ctx *ctx)
{
	int ret;

	if (ctx->fuse_done)
		return &ctx->fuse;
	ctx->fuse_done = true;
	ret = feat_run_child(fuse_child, NULL, &ctx->fuse, sizeof(ctx->fuse), 10000);
	if (ret) {
		ctx->fuse.err = ret;
		snprintf(ctx->fuse.step, sizeof(ctx->fuse.step), "the probe child");
	}
	return &ctx->fuse;
}

void fuse_init_probe(struct fuse_init_info *info)
{
	struct feat_ctx ctx = { .live = true };

	*info = *probe_once(&ctx);
}

static void probe_dev_fuse(struct feat_ctx *ctx, struct feat_result *r)
{
	char fs[4096] = "";
	struct stat st;

	if (ctx->live) {
		if (stat("/dev/fuse", &st))
			feat_set(r, FEAT_NO, "/dev/fuse: %s", strerror(errno));
		else if (!S_ISCHR(st.st_mode))
			feat_set(r, FEAT_NO, "/dev/fuse is not a character device");
		else
			feat_set(r, FEAT_YES, "/dev/fuse: character device %u:%u",
				 major(st.st_rdev), minor(st.st_rdev));
		return;
	}
	/* a captured tree has no /dev: the kernel's list of file systems says it */
	if (sysroot_read("/proc/filesystems", fs, sizeof(fs)) < 0)
		feat_set(r, FEAT_UNKNOWN, "no /proc/filesystems in the tree (and /dev is live only)");
	else if (strstr(fs, "\tfuse\n") || strstr(fs, "\tfuse"))
		feat_set(r, FEAT_YES, "/proc/filesystems lists fuse");
	else
		feat_set(r, FEAT_NO, "/proc/filesystems has no fuse");
}

/* The INIT answer, or the row's reason why there is none; NULL then. */
static const struct fuse_init_info *init_or_why(struct feat_ctx *ctx, struct feat_result *r)
{
	const struct fuse_init_info *fi;

	if (feat_live_only(ctx, r, "mounts a FUSE file system in a private namespace"))
		return NULL;
	fi = probe_once(ctx);
	if (!fi->err)
		return fi;
	if (fi->err == -ENOENT && !strcmp(fi->step, "open /dev/fuse"))
		feat_set(r, FEAT_NO, "open /dev/fuse: %s", strerror(-fi->err));
	else if (fi->err == -ENODEV && !strcmp(fi->step, "mount"))
		feat_set(r, FEAT_NO, "mount -t fuse: %s (no fuse file system)", strerror(-fi->err));
	else
		feat_set(r, FEAT_UNKNOWN, "INIT probe: %s: %s", fi->step, strerror(-fi->err));
	return NULL;
}

static void probe_init(struct feat_ctx *ctx, struct feat_result *r)
{
	const struct fuse_init_info *fi = init_or_why(ctx, r);
	char names[FEAT_EVIDENCE_MAX - 96];

	if (!fi)
		return;
	fuse_flag_names(fi->flags, names, sizeof(names));
	feat_set(r, FEAT_YES, "protocol %u.%u, flags 0x%016llx: %s", fi->major, fi->minor,
		 (unsigned long long)fi->flags, names);
}

static void probe_flag(struct feat_ctx *ctx, struct feat_result *r, unsigned bit)
{
	const struct fuse_init_info *fi = init_or_why(ctx, r);
	bool set;

	if (!fi)
		return;
	set = fi->flags & (1ULL << bit);
	feat_set(r, set ? FEAT_YES : FEAT_NO, "INIT %s: %s (protocol %u.%u)",
		 bit < 32 ? "flags" : "flags2", set ? "offered" : "not offered", fi->major,
		 fi->minor);
}

static void probe_init_ext(struct feat_ctx *ctx, struct feat_result *r)
{
	probe_flag(ctx, r, FUSE_INIT_EXT_BIT);
}

static void probe_supp_group(struct feat_ctx *ctx, struct feat_result *r)
{
	probe_flag(ctx, r, FUSE_CREATE_SUPP_GROUP_BIT);
}

/* Request extensions (total_extlen in every request header) came with 7.38. */
static void probe_extensions(struct feat_ctx *ctx, struct feat_result *r)
{
	const struct fuse_init_info *fi = init_or_why(ctx, r);

	if (!fi)
		return;
	feat_set(r, fi->major == 7 && fi->minor >= 38 ? FEAT_YES : FEAT_NO,
		 "INIT protocol %u.%u (extensions from 7.38); INIT header total_extlen %u",
		 fi->major, fi->minor, fi->total_extlen);
}

const struct feat_def feat_fuse[] = {
	{ "fuse", "/dev/fuse", "2.6.14", "-", probe_dev_fuse,
	  "CONFIG_FUSE_FS" },
	{ "fuse", "FUSE INIT", "2.6.14", "-", probe_init, NULL },
	{ "fuse", "FUSE_INIT_EXT", "5.17 (7.36)", "-", probe_init_ext, NULL },
	{ "fuse", "request extensions", "6.2 (7.38)", "-", probe_extensions, NULL },
	{ "fuse", "FUSE_CREATE_SUPP_GROUP", "6.2 (7.38)", "-", probe_supp_group, NULL },
	{ 0 },
};
