// SPDX-License-Identifier: GPL-2.0-only
/*
 * protocols - what the kernel's pata_parport protocols are, and the checks
 * of a new_device request before it is written.
 *
 * The kernel shows only the protocol names (/sys/bus/pata_parport/drivers);
 * the mode range, the EPP modes and the unit count live in each protocol's
 * struct pi_protocol. This table copies those numbers from the driver's
 * sources (the .c files of drivers/ata/pata_parport/, the same from 6.3 to 6.12) so that
 * a wrong mode is refused with its reason instead of ending as the kernel's
 * bare "Adapter not found".
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parport/parport.h"
#include "util.h"

#define MODES5 { "4-bit", "8-bit", "EPP-8", "EPP-16", "EPP-32" }
#define MODES6 { "4-bit", "5/3", "8-bit", "EPP-8", "EPP-16", "EPP-32" }

static const struct pp_known known[] = {
	{ "aten", "aten", "ATEN EH-100", 2, 2, 1, 1, { "4-bit", "8-bit" } },
	{ "bpck", "bpck", "MicroSolutions backpack (Series 5)", 5, 2, 4, 255, MODES5 },
	{ "bpck6", "bpck6", "MicroSolutions backpack (Series 6)", 5, 2, 0, 255, MODES5 },
	{ "comm", "comm", "DataStor Commuter", 5, 2, 1, 1, MODES5 },
	{ "dstr", "dstr", "DataStor EP-2000", 5, 2, 1, 1, MODES5 },
	{ "epat", "epat", "Shuttle EPAT/EPEZ", 6, 3, 1, 1, MODES6 },
	{ "epia", "epia", "Shuttle EPIA", 6, 3, 1, 1, MODES6 },
	{ "fit2", "fit2", "FIT TD-2000", 1, 2, 1, 1, { "standard" } },
	{ "fit3", "fit3", "FIT TD-3000", 3, 2, 1, 1, { "4-bit", "8-bit", "EPP" } },
	{ "friq", "friq", "Freecom IQ ASIC-2", 5, 2, 1, 1, MODES5 },
	{ "frpw", "frpw", "Freecom Power", 6, 2, 2, 1,
	  { "4-bit", "8-bit", "EPP", "EPP-8", "EPP-16", "EPP-32" } },
	{ "k951", "kbic", "KingByte KBIC-951A", 6, 3, 1, 1,
	  { "4-bit", "5/3", "8-bit", "EPP-8", "EPP_16", "EPP-32" } },
	{ "k971", "kbic", "KingByte KBIC-971A", 6, 3, 1, 1,
	  { "4-bit", "5/3", "8-bit", "EPP-8", "EPP_16", "EPP-32" } },
	{ "ktti", "ktti", "KT PHd", 1, 2, 1, 1, { "standard" } },
	{ "on20", "on20", "OnSpec 90c20", 2, 2, 1, 1, { "4-bit", "8-bit" } },
	{ "on26", "on26", "OnSpec 90c26", 5, 2, 1, 1, MODES5 },
};

#define NKNOWN ARRAY_SIZE(known)

const struct pp_known *pp_known_protocol(const char *name)
{
	for (size_t i = 0; i < NKNOWN; i++)
		if (!strcmp(known[i].name, name))
			return &known[i];
	return NULL;
}

int pp_module_protocols(const char *module, const struct pp_known **out, int max)
{
	int n = 0;

	for (size_t i = 0; i < NKNOWN; i++)
		if (!strcmp(known[i].module, module) && n < max)
			out[n++] = &known[i];
	return n;
}

const char *pp_mode_name(const struct pp_known *p, int mode)
{
	if (!p || mode < 0 || mode >= p->max_mode || mode >= 6)
		return NULL;
	return p->modes[mode];
}

/* MODE, UNIT, DELAY: a number from -1 up, or "auto" for -1. */
static int parse_num(const char *s, const char *what, long long max, int *val,
		     char *err, size_t errlen)
{
	char *end;
	long long v;

	if (!strcmp(s, "auto")) {
		*val = -1;
		return 0;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (!*s || *end || errno || v < -1 || v > max) {
		snprintf(err, errlen, "%s must be a number from -1 (auto) to %lld: %s", what, max, s);
		return -EINVAL;
	}
	*val = v;
	return 0;
}

/* parportN with N a plain decimal number. */
static bool port_name_ok(const char *s)
{
	const char *d = s + strlen("parport");

	if (strncmp(s, "parport", strlen("parport")) || !*d || strlen(d) > 3)
		return false;
	if (d[0] == '0' && d[1])
		return false;
	return strspn(d, "0123456789") == strlen(d);
}

int pp_request_parse(int n, char **words, struct pp_request *rq, char *err, size_t errlen)
{
	size_t len;

	memset(rq, 0, sizeof(*rq));
	rq->mode = rq->unit = rq->delay = -1;
	strcpy(rq->port, "auto");
	strcpy(rq->protocol, "auto");
	if (n < 1) {
		snprintf(err, errlen, "add needs PORT PROTOCOL [MODE [UNIT [DELAY]]], or auto");
		return -EINVAL;
	}
	if (n > 5) {
		snprintf(err, errlen, "unexpected argument: %s", words[5]);
		return -EINVAL;
	}
	if (strcmp(words[0], "auto") && !port_name_ok(words[0])) {
		snprintf(err, errlen, "not a port name (parportN or auto): %s", words[0]);
		return -EINVAL;
	}
	snprintf(rq->port, sizeof(rq->port), "%s", words[0]);
	if (n >= 2) {
		/* the kernel reads at most 7 characters of it */
		if (!*words[1] || strlen(words[1]) > 7 || strpbrk(words[1], " \t\n")) {
			snprintf(err, errlen, "not a protocol name (at most 7 characters): %s", words[1]);
			return -EINVAL;
		}
		snprintf(rq->protocol, sizeof(rq->protocol), "%s", words[1]);
	} else if (strcmp(rq->port, "auto")) {
		snprintf(err, errlen, "add %s needs a PROTOCOL (a name, or auto)", rq->port);
		return -EINVAL;
	}
	if (n >= 3 && parse_num(words[2], "MODE", 63, &rq->mode, err, errlen))
		return -EINVAL;
	if (n >= 4 && parse_num(words[3], "UNIT", 255, &rq->unit, err, errlen))
		return -EINVAL;
	if (n >= 5 && parse_num(words[4], "DELAY", 1000, &rq->delay, err, errlen))
		return -EINVAL;
	rq->nfields = n;
	/* Only the fields given, as the kernel's sscanf() reads them. */
	len = snprintf(rq->line, sizeof(rq->line), "%s", rq->port);
	if (n >= 2)
		len += snprintf(rq->line + len, sizeof(rq->line) - len, " %s", rq->protocol);
	if (n >= 3)
		len += snprintf(rq->line + len, sizeof(rq->line) - len, " %d", rq->mode);
	if (n >= 4)
		len += snprintf(rq->line + len, sizeof(rq->line) - len, " %d", rq->unit);
	if (n >= 5)
		snprintf(rq->line + len, sizeof(rq->line) - len, " %d", rq->delay);
	return 0;
}

/* "a, b and c" of the registered protocols, or "none". */
static void proto_names(const struct pp_state *st, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < st->nprotos && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "", st->protos[i].name);
	if (!st->nprotos)
		snprintf(buf, len, "none");
}

/* The protocol is not registered: say what to load, or what the name is. */
static int explain_protocol(const struct pp_state *st, const char *name, char *err, size_t errlen)
{
	const struct pp_known *mod[4], *k = pp_known_protocol(name);
	char reg[PP_TEXT_MAX];
	int n = pp_module_protocols(name, mod, 4);

	proto_names(st, reg, sizeof(reg));
	if (n && !k) {
		char names[PP_TEXT_MAX];
		size_t off = 0;
		bool loaded = false;

		for (int i = 0; i < n; i++) {
			off += snprintf(names + off, sizeof(names) - off, "%s%s",
					i ? (i == n - 1 ? " or " : ", ") : "", mod[i]->name);
			loaded |= pp_find_proto(st, mod[i]->name) != NULL;
		}
		snprintf(err, errlen, "%s is a module, not a protocol: it registers %s; "
			 "give one of those%s", name, names,
			 loaded ? "" : " (after modprobe of the module)");
		return -EINVAL;
	}
	if (k) {
		snprintf(err, errlen, "protocol %s is not registered: load its module "
			 "(modprobe %s); registered now: %s", name, k->module, reg);
		return -EINVAL;
	}
	snprintf(err, errlen, "no protocol %s is registered (registered: %s)", name, reg);
	return -EINVAL;
}

int pp_request_check(const struct pp_state *st, const struct pp_request *rq,
		     char *err, size_t errlen)
{
	const struct pp_port *port = NULL;
	const struct pp_known *k = NULL;
	const char *mode_name;

	if (strcmp(rq->port, "auto")) {
		port = pp_find_port(st, rq->port);
		if (!port) {
			snprintf(err, errlen, "no port %s (ports: %s%s%s)", rq->port,
				 st->nports ? st->ports[0].name : "none",
				 st->nports > 1 ? ", " : "", st->nports > 1 ? st->ports[1].name : "");
			return -EINVAL;
		}
	}
	if (strcmp(rq->protocol, "auto")) {
		if (!pp_find_proto(st, rq->protocol))
			return explain_protocol(st, rq->protocol, err, errlen);
		k = pp_known_protocol(rq->protocol);
	}
	if (k && rq->mode >= k->max_mode) {
		snprintf(err, errlen, "protocol %s has modes 0 to %d (%s to %s), not %d",
			 k->name, k->max_mode - 1, k->modes[0], k->modes[k->max_mode - 1], rq->mode);
		return -EINVAL;
	}
	mode_name = pp_mode_name(k, rq->mode);
	if (k && port && rq->mode >= k->epp_first && port->base >= 0 && port->base % 8) {
		snprintf(err, errlen, "mode %d (%s) of %s is an EPP mode, which needs a port "
			 "base aligned to 8; %s is at 0x%llx", rq->mode, mode_name, k->name,
			 port->name, port->base);
		return -EINVAL;
	}
	if (k && rq->unit >= k->max_units) {
		snprintf(err, errlen, "protocol %s has %s, not unit %d", k->name,
			 k->max_units == 1 ? "only unit 0" : "units 0 to 254", rq->unit);
		return -EINVAL;
	}
	if (port && port->active[0]) {
		/* pata_parport keeps its port claimed; a probe would wait for it forever */
		char holder[PP_TEXT_MAX] = "";

		for (int i = 0; i < st->ndevs; i++)
			if (!strcmp(st->devs[i].port, port->name))
				snprintf(holder, sizeof(holder), " (%s, protocol %s)",
					 st->devs[i].name, st->devs[i].protocol);
		if (k || strcmp(rq->protocol, "auto")) {
			for (int i = 0; i < st->ndevs; i++)
				if (!strcmp(st->devs[i].port, port->name) &&
				    !strcmp(st->devs[i].protocol, rq->protocol)) {
					snprintf(err, errlen, "%s already has a %s device: %s",
						 port->name, rq->protocol, st->devs[i].name);
					return -EINVAL;
				}
		}
		snprintf(err, errlen, "%s is held by %s%s: the driver would wait for it to be "
			 "released, which never happens while that device exists; delete it first",
			 port->name, port->active, holder);
		return -EINVAL;
	}
	for (int i = 0; !port && i < st->nports; i++) {
		const struct pp_port *p = &st->ports[i];

		/* auto probes every port the driver knows: a held one blocks it */
		if (p->active[0]) {
			snprintf(err, errlen, "%s would probe %s, which %s holds: the driver would "
				 "wait for it to be released, which never happens while that device "
				 "exists; name a free port, or delete the device first", rq->line,
				 p->name, p->active);
			return -EINVAL;
		}
	}
	if (port && port->number >= 1) {
		snprintf(err, errlen, "%s: the pata_parport driver of Linux 6.3 to 6.12 only admits "
			 "parport0 (its port list takes each port at an index range that is empty "
			 "for every number above 0); the kernel will probably answer ENODEV",
			 port->name);
		return 1;
	}
	return 0;
}
