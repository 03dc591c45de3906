// SPDX-License-Identifier: GPL-2.0-only
/*
 * scan - read the ports, protocols and devices through the sysroot.
 *
 * Layout (6.3 to 6.12): ports are /sys/bus/parport/devices/parportN, with
 * their settings in /proc/sys/dev/parport/parportN; a pata_parport device
 * pata_parport.N sits on both buses: on the pata_parport bus its driver link
 * names the protocol, on the parport bus it is the pardevice under its port,
 * with ataM/hostK/target.../block/sdX below it. Mode, unit and delay are
 * only in the protocol's log_adapter line in the kernel log.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parport/parport.h"
#include "sysroot.h"

/* a port's settings, one file each */
#define PP_PROC	"/proc/sys/dev/parport"

/* A name into a fixed field, cut at its size (sysfs names are short). */
static void set_name(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* The last path component of the link PATH points to, in buf. */
static int link_target_name(const char *path, char *buf, size_t len)
{
	char host[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	const char *slash;

	n = readlink(sysroot_path(path, host, sizeof(host)), target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	slash = strrchr(target, '/');
	set_name(buf, len, slash ? slash + 1 : target);
	return 0;
}

/*
 * The first entry of DIR whose name starts with PREFIX and goes on with a
 * digit ("ata1" for "ata"); with PREFIX "" the first entry at all.
 */
static bool find_entry(const char *dir, const char *prefix, char *buf, size_t len)
{
	DIR *d = sysroot_opendir(dir);
	struct dirent *de;
	size_t pl = strlen(prefix);
	bool found = false;

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!pl || (!strncmp(de->d_name, prefix, pl) && isdigit((unsigned char)de->d_name[pl]))) {
			set_name(buf, len, de->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

static int cmp_port(const void *a, const void *b)
{
	return ((const struct pp_port *)a)->number - ((const struct pp_port *)b)->number;
}

static int cmp_dev(const void *a, const void *b)
{
	return ((const struct pp_dev *)a)->id - ((const struct pp_dev *)b)->id;
}

static int cmp_proto(const void *a, const void *b)
{
	return strcmp(((const struct pp_proto *)a)->name, ((const struct pp_proto *)b)->name);
}

static void read_port(struct pp_port *p)
{
	char buf[PP_TEXT_MAX];
	DIR *d;
	struct dirent *de;
	size_t off = 0;

	p->base = p->base_hi = p->irq = p->dma = -1;
	if (sysroot_readf(buf, sizeof(buf), PP_PROC "/%s/base-addr", p->name) > 0)
		sscanf(buf, "%lld %lld", &p->base, &p->base_hi);
	sysroot_readf_ll(&p->irq, PP_PROC "/%s/irq", p->name);
	sysroot_readf_ll(&p->dma, PP_PROC "/%s/dma", p->name);
	if (sysroot_readf(p->modes, sizeof(p->modes), PP_PROC "/%s/modes", p->name) < 0)
		p->modes[0] = '\0';
	if (sysroot_readf(p->active, sizeof(p->active), PP_PROC "/%s/devices/active", p->name) < 0 ||
	    !strcmp(p->active, "none"))
		p->active[0] = '\0';
	d = sysroot_opendirf(PP_PROC "/%s/devices", p->name);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "active"))
			continue;
		if (off < sizeof(p->clients))
			off += snprintf(p->clients + off, sizeof(p->clients) - off, "%s%s",
					off ? "," : "", de->d_name);
	}
	if (d)
		closedir(d);
}

static void scan_ports(struct pp_state *st)
{
	DIR *d = sysroot_opendir("/sys/bus/parport/devices");
	struct dirent *de;

	while (d && (de = readdir(d))) {
		struct pp_port *p;
		char *end;
		long n;

		if (strncmp(de->d_name, "parport", 7) || !isdigit((unsigned char)de->d_name[7]))
			continue;
		n = strtol(de->d_name + 7, &end, 10);
		if (*end || st->nports >= PP_MAX_PORTS)
			continue;	/* a pardevice such as pata_parport.0 has a dot */
		p = &st->ports[st->nports++];
		memset(p, 0, sizeof(*p));
		set_name(p->name, sizeof(p->name), de->d_name);
		p->number = n;
		read_port(p);
	}
	if (d)
		closedir(d);
	qsort(st->ports, st->nports, sizeof(st->ports[0]), cmp_port);
}

/*
 * Which module registered each protocol. The driver link has no module (the
 * protocols do not set driver.owner), so: the kernel's own table, a module of
 * the protocol's name, or else the one module that uses pata_parport and has
 * no protocol yet (/proc/modules lists pata_parport's users).
 */
static void match_modules(struct pp_state *st)
{
	char line[1024], users[PP_MAX_PROTOS][PP_NAME_MAX];
	int nusers = 0;
	FILE *f = sysroot_fopen("/proc/modules", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char name[PP_NAME_MAX], used[768];

		if (sscanf(line, "%63s %*s %*s %767s", name, used) != 2 || strcmp(name, "pata_parport"))
			continue;
		for (char *tok = strtok(used, ","); tok && nusers < PP_MAX_PROTOS; tok = strtok(NULL, ","))
			if (strcmp(tok, "-"))
				snprintf(users[nusers++], PP_NAME_MAX, "%s", tok);
	}
	if (f)
		fclose(f);

	for (int i = 0; i < st->nprotos; i++) {
		struct pp_proto *p = &st->protos[i];
		const struct pp_known *k = pp_known_protocol(p->name);
		bool loaded = sysroot_existsf("/sys/module/%s", k ? k->module : p->name);

		if (k && (loaded || !nusers))
			set_name(p->module, sizeof(p->module), k->module);
		else if (loaded)
			set_name(p->module, sizeof(p->module), p->name);
		for (int u = 0; u < nusers && !p->module[0]; u++)
			if (strstr(users[u], p->name))
				set_name(p->module, sizeof(p->module), users[u]);
	}
	/* the users left over, one each for the protocols left over */
	for (int i = 0; i < st->nprotos; i++) {
		struct pp_proto *p = &st->protos[i];
		int left = -1, nleft = 0;

		if (p->module[0])
			continue;
		for (int u = 0; u < nusers; u++) {
			bool taken = false;

			for (int j = 0; j < st->nprotos; j++)
				taken |= !strcmp(st->protos[j].module, users[u]);
			if (!taken) {
				left = u;
				nleft++;
			}
		}
		if (nleft == 1)
			set_name(p->module, sizeof(p->module), users[left]);
	}
}

static void scan_protocols(struct pp_state *st)
{
	DIR *d = sysroot_opendir(PP_BUS "/drivers");
	struct dirent *de;

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || st->nprotos >= PP_MAX_PROTOS)
			continue;
		memset(&st->protos[st->nprotos], 0, sizeof(st->protos[0]));
		set_name(st->protos[st->nprotos++].name, PP_NAME_MAX, de->d_name);
	}
	if (d)
		closedir(d);
	qsort(st->protos, st->nprotos, sizeof(st->protos[0]), cmp_proto);
	match_modules(st);
}

/* ataM, hostK and the disk below the pardevice pata_parport.N of its port. */
static void read_disk(struct pp_dev *d)
{
	char dir[PATH_MAX], path[PATH_MAX], buf[PP_TEXT_MAX], target[PP_NAME_MAX],
	     lun[PP_NAME_MAX];
	long long sectors;

	snprintf(dir, sizeof(dir), "/sys/devices/%s/%s", d->port, d->name);
	if (!d->port[0] || !find_entry(dir, "ata", d->ata, sizeof(d->ata)))
		return;
	snprintf(dir, sizeof(dir), "/sys/devices/%s/%s/%s", d->port, d->name, d->ata);
	if (!find_entry(dir, "host", d->host, sizeof(d->host)))
		return;
	/* target0:0:0/0:0:0:0/block/sda (or sr0), the master only */
	if (strlen(dir) + 3 * PP_NAME_MAX + 16 >= sizeof(dir))
		return;
	snprintf(path, sizeof(path), "%.3000s/%s", dir, d->host);
	if (!find_entry(path, "target", target, sizeof(target)))
		return;
	snprintf(dir, sizeof(dir), "%.3500s/%s", path, target);
	snprintf(lun, sizeof(lun), "%s:0", target + strlen("target"));
	snprintf(path, sizeof(path), "%.3900s/%s/block", dir, lun);
	if (!find_entry(path, "", d->disk, sizeof(d->disk)))
		return;
	if (!sysroot_readf_ll(&sectors, "/sys/block/%s/size", d->disk) && sectors >= 0)
		d->size = (uint64_t)sectors * 512;
	if (sysroot_readf(buf, sizeof(buf), "/sys/block/%s/device/model", d->disk) > 0) {
		size_t n = strlen(buf);

		while (n && buf[n - 1] == ' ')
			buf[--n] = '\0';
		set_name(d->model, sizeof(d->model), buf);
	}
}

/* The parportN a pardevice pata_parport.N hangs under. */
static void find_port(const struct pp_state *st, struct pp_dev *d)
{
	for (int i = 0; i < st->nports; i++) {
		if (sysroot_existsf("/sys/devices/%s/%s", st->ports[i].name, d->name)) {
			set_name(d->port, sizeof(d->port), st->ports[i].name);
			return;
		}
	}
}

bool pp_parse_adapter_log(const char *msg, const char *name, struct pp_dev *d)
{
	const char *p = strstr(msg, name), *m;
	size_t nl = strlen(name);
	int mode, delay, unit;
	char mname[32] = "";

	/* "<protocol> pata_parport.N: <chip> at 0x378, mode 0 (4-bit), delay 1" */
	if (!p || p == msg || p[-1] != ' ' || strncmp(p + nl, ": ", 2))
		return false;
	m = strstr(p, ", mode");
	if (!m)
		return false;
	if (sscanf(m, ", mode %d (%31[^)]), delay %d", &mode, mname, &delay) != 3 &&
	    sscanf(m, ", mode:%d (%31[^)]), delay %d", &mode, mname, &delay) != 3)
		return false;
	d->mode = mode;
	d->delay = delay;
	snprintf(d->mode_name, sizeof(d->mode_name), "%s", mname);
	m = strstr(p, " unit ");
	if (m && sscanf(m, " unit %d", &unit) == 1)
		d->unit = unit;
	return true;
}

struct log_match {
	struct pp_state *st;
};

static int log_line(const char *msg, void *data)
{
	struct pp_state *st = ((struct log_match *)data)->st;

	for (int i = 0; i < st->ndevs; i++) {
		struct pp_dev *d = &st->devs[i];
		struct pp_dev tmp = *d;

		/* the last line wins: ids are reused after a delete */
		if (pp_parse_adapter_log(msg, d->name, &tmp) && !strncmp(msg, d->protocol, strlen(d->protocol)))
			*d = tmp;
	}
	return 0;
}

static void scan_devices(struct pp_state *st)
{
	DIR *dir = sysroot_opendir(PP_BUS "/devices");
	struct dirent *de;
	struct log_match lm = { st };

	while (dir && (de = readdir(dir))) {
		struct pp_dev *d;
		char path[PATH_MAX];

		if (strncmp(de->d_name, "pata_parport.", 13) || st->ndevs >= PP_MAX_DEVS)
			continue;
		d = &st->devs[st->ndevs++];
		memset(d, 0, sizeof(*d));
		set_name(d->name, sizeof(d->name), de->d_name);
		d->id = atoi(de->d_name + 13);
		d->mode = d->unit = d->delay = -1;
		snprintf(path, sizeof(path), PP_BUS "/devices/%s/driver", d->name);
		link_target_name(path, d->protocol, sizeof(d->protocol));
		find_port(st, d);
		read_disk(d);
		for (int i = 0; i < st->nprotos; i++)
			if (!strcmp(st->protos[i].name, d->protocol))
				st->protos[i].ndevs++;
	}
	if (dir)
		closedir(dir);
	qsort(st->devs, st->ndevs, sizeof(st->devs[0]), cmp_dev);
	if (st->ndevs)
		st->log_read = !pp_kmsg_each(log_line, &lm);
	for (int i = 0; i < st->ndevs; i++) {
		const struct pp_known *k = pp_known_protocol(st->devs[i].protocol);

		/* one-unit protocols log no unit: it is 0 */
		if (st->devs[i].mode >= 0 && st->devs[i].unit < 0 && (!k || k->max_units == 1))
			st->devs[i].unit = 0;
	}
}

/* One record, "prio,seq,time,flags;text"; continuation lines start with a blank. */
static int kmsg_record(char *rec, int (*fn)(const char *msg, void *data), void *data)
{
	char *text = strchr(rec, ';'), *nl;

	if (!text || rec[0] == ' ')
		return 0;
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	return fn(text + 1, data);
}

int pp_kmsg_each(int (*fn)(const char *msg, void *data), void *data)
{
	char rec[8192];
	int fd, ret = 0;
	FILE *f;

	if (!sysroot_is_live()) {
		/* a captured tree: the records, one a line (cat /dev/kmsg) */
		f = sysroot_fopen("/dev/kmsg", "r");
		if (!f)
			return -errno;
		while (!ret && fgets(rec, sizeof(rec), f))
			ret = kmsg_record(rec, fn, data);
		fclose(f);
		return ret < 0 ? ret : 0;
	}
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (!ret) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);

		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten while reading: go on with the next */
		if (n <= 0)
			break;	/* EAGAIN: the end */
		rec[n] = '\0';
		ret = kmsg_record(rec, fn, data);
	}
	close(fd);
	return ret < 0 ? ret : 0;
}

const struct pp_port *pp_find_port(const struct pp_state *st, const char *name)
{
	for (int i = 0; i < st->nports; i++)
		if (!strcmp(st->ports[i].name, name))
			return &st->ports[i];
	return NULL;
}

const struct pp_dev *pp_find_dev(const struct pp_state *st, const char *name)
{
	for (int i = 0; i < st->ndevs; i++)
		if (!strcmp(st->devs[i].name, name))
			return &st->devs[i];
	return NULL;
}

const struct pp_proto *pp_find_proto(const struct pp_state *st, const char *name)
{
	for (int i = 0; i < st->nprotos; i++)
		if (!strcmp(st->protos[i].name, name))
			return &st->protos[i];
	return NULL;
}

int pp_scan(struct pp_state *st)
{
	long long v;

	memset(st, 0, sizeof(*st));
	st->probe = -1;
	st->parport = sysroot_exists("/sys/bus/parport");
	st->pata_parport = sysroot_exists(PP_BUS);
	if (!sysroot_read_ll("/sys/module/pata_parport/parameters/probe", &v))
		st->probe = !!v;
	else {
		char buf[8];

		if (sysroot_read("/sys/module/pata_parport/parameters/probe", buf, sizeof(buf)) > 0)
			st->probe = buf[0] == 'Y' || buf[0] == 'y' || buf[0] == '1';
	}
	if (st->parport)
		scan_ports(st);
	if (st->pata_parport) {
		scan_protocols(st);
		scan_devices(st);
	}
	return 0;
}
