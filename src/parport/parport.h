/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parport - parallel ports, pata_parport protocols, devices and their disks.
 *
 * The kernel's interface is scattered: ports under /sys/bus/parport and
 * /proc/sys/dev/parport, protocols and devices under /sys/bus/pata_parport,
 * the ATA port, SCSI host and disk below the port's pardevice, and a
 * device's mode, unit and delay only in the kernel log. scan.c gathers it
 * into one struct pp_state; protocols.c knows the protocols and checks a
 * new_device request (pure, unit-tested); list.c prints; write.c writes
 * new_device and delete_device with a time limit and explains the errors.
 */
#ifndef RTLA_PARPORT_H
#define RTLA_PARPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output.h"

#define PP_NAME_MAX	64
#define PP_TEXT_MAX	256
#define PP_MAX_PORTS	16
#define PP_MAX_PROTOS	32
#define PP_MAX_DEVS	32

#define PP_BUS		"/sys/bus/pata_parport"
#define PP_NEW_DEVICE	PP_BUS "/new_device"
#define PP_DEL_DEVICE	PP_BUS "/delete_device"

/* A protocol of the kernel's drivers/ata/pata_parport/, as its source defines it. */
struct pp_known {
	const char *name;	/* protocol (driver) name, what new_device takes */
	const char *module;	/* the module that registers it */
	const char *chip;
	int max_mode;
	int epp_first;		/* modes from here on are EPP: the port base must be 8-aligned */
	int default_delay;
	int max_units;
	const char *modes[6];	/* mode names, index = mode */
};

const struct pp_known *pp_known_protocol(const char *name);
/* The protocols a module registers (kbic: k951, k971); n of them, at most max. */
int pp_module_protocols(const char *module, const struct pp_known **out, int max);
/* The name of mode MODE of protocol P ("4-bit"), or NULL. */
const char *pp_mode_name(const struct pp_known *p, int mode);

struct pp_port {
	char name[PP_NAME_MAX];		/* parportN */
	int number;
	long long base, base_hi;	/* -1 when unknown */
	long long irq, dma;		/* -1: none */
	char modes[PP_TEXT_MAX];
	char active[PP_NAME_MAX];	/* the pardevice holding it, "" when none */
	char clients[PP_TEXT_MAX];	/* registered pardevices, comma-separated */
};

struct pp_proto {
	char name[PP_NAME_MAX];
	char module[PP_NAME_MAX];	/* "" when it cannot be told */
	int ndevs;
};

struct pp_dev {
	char name[PP_NAME_MAX];		/* pata_parport.N */
	int id;
	char port[PP_NAME_MAX];		/* parportN, "" when unknown */
	char protocol[PP_NAME_MAX];
	int mode, unit, delay;		/* from the kernel log; -1 when not found there */
	char mode_name[32];
	char ata[PP_NAME_MAX];		/* ataN */
	char host[PP_NAME_MAX];		/* hostN */
	char disk[PP_NAME_MAX];		/* sda, sr0 */
	uint64_t size;			/* bytes */
	char model[PP_NAME_MAX];
};

struct pp_state {
	bool parport;		/* /sys/bus/parport exists */
	bool pata_parport;	/* /sys/bus/pata_parport exists */
	int probe;		/* pata_parport's probe parameter: 0, 1, -1 unknown */
	bool log_read;		/* the kernel log could be read */
	int nports, nprotos, ndevs;
	struct pp_port ports[PP_MAX_PORTS];
	struct pp_proto protos[PP_MAX_PROTOS];
	struct pp_dev devs[PP_MAX_DEVS];
};

/* Read everything through the sysroot. 0 or -errno (out of memory only). */
int pp_scan(struct pp_state *st);
const struct pp_port *pp_find_port(const struct pp_state *st, const char *name);
const struct pp_proto *pp_find_proto(const struct pp_state *st, const char *name);
const struct pp_dev *pp_find_dev(const struct pp_state *st, const char *name);

/*
 * The kernel log, oldest first, as /dev/kmsg gives it (or the file dev/kmsg
 * of a captured tree): calls fn for each message text. 0, or -errno when it
 * cannot be read (dmesg_restrict, no capture).
 */
int pp_kmsg_each(int (*fn)(const char *msg, void *data), void *data);
/* Parse a log_adapter line of device NAME ("... mode 0 (4-bit), delay 1"). */
bool pp_parse_adapter_log(const char *msg, const char *name, struct pp_dev *d);

/* A new_device request, checked against the state before anything is written. */
struct pp_request {
	char port[PP_NAME_MAX];		/* parportN or auto */
	char protocol[PP_NAME_MAX];	/* a protocol or auto */
	int nfields;			/* how many of the five were given */
	int mode, unit, delay;		/* -1: probe / all / default */
	char line[PP_TEXT_MAX];		/* what goes to new_device */
};

/*
 * Parse the words of `add` (PORT PROTOCOL [MODE [UNIT [DELAY]]], or "auto").
 * -EINVAL with "what: value" in err.
 */
int pp_request_parse(int n, char **words, struct pp_request *rq, char *err, size_t errlen);
/*
 * Check it against what the kernel has now: the port exists, the protocol is
 * registered (a module name gets its protocols named), the numbers are in
 * range for a known protocol, the port is not held by another device. -EINVAL
 * with a sentence in err; 1 with a note in err that the write should still be
 * tried (a port the 6.12 driver cannot use); 0 when fine.
 */
int pp_request_check(const struct pp_state *st, const struct pp_request *rq,
		     char *err, size_t errlen);

struct pp_opts {
	enum { PP_LIST, PP_ADD, PP_DELETE } verb;
	bool ports, protocols, devices;	/* which tables; none set: all */
	bool dry_run;
	double timeout;			/* seconds a write may take */
	struct out_opts out;
	int nargs;
	char **args;
};

int pp_list(const struct pp_opts *o, struct pp_state *st);
int pp_add(const struct pp_opts *o, struct pp_state *st);
int pp_delete(const struct pp_opts *o, struct pp_state *st);

/* Print the devices of st whose names are not in before (add's result). */
void pp_fill_devices(struct out_table *t, const struct pp_state *st,
		     const struct pp_state *before);
int pp_print_devices(const struct pp_opts *o, const struct pp_state *st,
		     const struct pp_state *before);

#endif
