// SPDX-License-Identifier: GPL-2.0-only
/*
 * list - the three tables (ports, protocols, devices) and the record.
 *
 * Text shows the tables one after another, each only where it means
 * something (no ports table without parport support); --ports, --protocols
 * or --devices shows one, and -o picks that one's columns. The JSON record
 * always holds all three, with what is loaded and the notes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "msg.h"
#include "output.h"
#include "parse.h"
#include "parport/parport.h"
#include "util.h"

enum { PC_PORT, PC_BASE, PC_BASE_HI, PC_IRQ, PC_DMA, PC_MODES, PC_HOLDER, PC_CLIENTS };
const struct out_column pp_port_cols[] = {
	[PC_PORT] = { "PORT", "port", OUT_STR, 0, 0, "port name (parportN)" },
	[PC_BASE] = { "BASE", "base", OUT_STR, 0, 0, "I/O base address" },
	[PC_BASE_HI] = { "BASEHI", "base_hi", OUT_STR, 0, 0, "second (ECP) I/O base" },
	[PC_IRQ] = { "IRQ", "irq", OUT_NUM, 0, OUT_RIGHT, "interrupt line" },
	[PC_DMA] = { "DMA", "dma", OUT_NUM, 0, OUT_RIGHT, "DMA channel" },
	[PC_MODES] = { "MODES", "modes", OUT_STR, 0, 0, "transfer modes the port offers" },
	[PC_HOLDER] = { "HOLDER", "holder", OUT_STR, 0, 0, "the client holding the port now" },
	[PC_CLIENTS] = { "CLIENTS", "clients", OUT_STR, 0, 0, "clients registered on the port" },
};
const size_t pp_port_ncols = ARRAY_SIZE(pp_port_cols);
#define PORT_DEFAULT "PORT,BASE,IRQ,DMA,MODES,HOLDER"

enum { RC_PROTOCOL, RC_MODULE, RC_CHIP, RC_MODES, RC_DEVICES };
const struct out_column pp_proto_cols[] = {
	[RC_PROTOCOL] = { "PROTOCOL", "protocol", OUT_STR, 0, 0, "protocol name (what add takes)" },
	[RC_MODULE] = { "MODULE", "module", OUT_STR, 0, 0, "the module that registered it" },
	[RC_CHIP] = { "CHIP", "chip", OUT_STR, 0, 0, "adapter chip" },
	[RC_MODES] = { "MODES", "modes", OUT_STR, 0, 0, "its transfer modes, by number" },
	[RC_DEVICES] = { "DEVICES", "devices", OUT_NUM, 0, OUT_RIGHT, "devices using it" },
};
const size_t pp_proto_ncols = ARRAY_SIZE(pp_proto_cols);
#define PROTO_DEFAULT "PROTOCOL,MODULE,CHIP,DEVICES"

enum { DC_DEVICE, DC_PORT, DC_PROTOCOL, DC_MODE, DC_MODENAME, DC_UNIT, DC_DELAY, DC_ATA,
       DC_HOST, DC_DISK, DC_SIZE, DC_MODEL };
const struct out_column pp_dev_cols[] = {
	[DC_DEVICE] = { "DEVICE", "device", OUT_STR, 0, 0, "device name (what delete takes)" },
	[DC_PORT] = { "PORT", "port", OUT_STR, 0, 0, "its parallel port" },
	[DC_PROTOCOL] = { "PROTOCOL", "protocol", OUT_STR, 0, 0, "its protocol" },
	[DC_MODE] = { "MODE", "mode", OUT_NUM, 0, OUT_RIGHT, "transfer mode (kernel log)" },
	[DC_MODENAME] = { "MODENAME", "mode_name", OUT_STR, 0, 0, "the mode's name (kernel log)" },
	[DC_UNIT] = { "UNIT", "unit", OUT_NUM, 0, OUT_RIGHT, "unit on a chain (kernel log)" },
	[DC_DELAY] = { "DELAY", "delay", OUT_NUM, 0, OUT_RIGHT, "port delay in us (kernel log)" },
	[DC_ATA] = { "ATA", "ata_port", OUT_STR, 0, 0, "libata port" },
	[DC_HOST] = { "HOST", "scsi_host", OUT_STR, 0, 0, "SCSI host" },
	[DC_DISK] = { "DISK", "disk", OUT_STR, 0, 0, "disk or CD device" },
	[DC_SIZE] = { "SIZE", "size", OUT_NUM, 0, OUT_RIGHT, "disk size in bytes" },
	[DC_MODEL] = { "MODEL", "model", OUT_STR, 0, 0, "disk model" },
};
const size_t pp_dev_ncols = ARRAY_SIZE(pp_dev_cols);
#define DEV_DEFAULT "DEVICE,PORT,PROTOCOL,MODE,MODENAME,UNIT,DELAY,ATA,HOST,DISK,SIZE,MODEL"

static void set_str(struct out_row *r, int col, const char *s)
{
	if (s && *s)
		out_set_str(r, col, s);
	else
		out_set_none(r, col);
}

static void set_num(struct out_row *r, int col, long long v)
{
	if (v >= 0)
		out_set_fmt(r, col, "%lld", v);
	else
		out_set_none(r, col);
}

static void fill_ports(struct out_table *t, const struct pp_state *st)
{
	for (int i = 0; i < st->nports; i++) {
		const struct pp_port *p = &st->ports[i];
		struct out_row *r = out_row_add(t);

		out_set_str(r, PC_PORT, p->name);
		if (p->base >= 0)
			out_set_fmt(r, PC_BASE, "0x%llx", p->base);
		else
			out_set_none(r, PC_BASE);
		if (p->base_hi > 0)
			out_set_fmt(r, PC_BASE_HI, "0x%llx", p->base_hi);
		else
			out_set_none(r, PC_BASE_HI);
		set_num(r, PC_IRQ, p->irq);
		set_num(r, PC_DMA, p->dma);
		set_str(r, PC_MODES, p->modes);
		set_str(r, PC_HOLDER, p->active);
		set_str(r, PC_CLIENTS, p->clients);
	}
}

static void fill_protos(struct out_table *t, const struct pp_state *st)
{
	for (int i = 0; i < st->nprotos; i++) {
		const struct pp_proto *p = &st->protos[i];
		const struct pp_known *k = pp_known_protocol(p->name);
		struct out_row *r = out_row_add(t);

		out_set_str(r, RC_PROTOCOL, p->name);
		set_str(r, RC_MODULE, p->module);
		set_str(r, RC_CHIP, k ? k->chip : NULL);
		if (k) {
			char modes[PP_TEXT_MAX];
			size_t off = 0;

			for (int m = 0; m < k->max_mode && m < 6; m++)
				off += snprintf(modes + off, sizeof(modes) - off, "%s%d:%s",
						m ? "," : "", m, k->modes[m]);
			out_set_str(r, RC_MODES, modes);
		} else {
			out_set_none(r, RC_MODES);
		}
		out_set_fmt(r, RC_DEVICES, "%d", p->ndevs);
	}
}

void pp_fill_devices(struct out_table *t, const struct pp_state *st, const struct pp_state *before)
{
	for (int i = 0; i < st->ndevs; i++) {
		const struct pp_dev *d = &st->devs[i];
		struct out_row *r;
		bool old = false;

		for (int j = 0; before && j < before->ndevs; j++)
			old |= !strcmp(before->devs[j].name, d->name);
		if (old)
			continue;
		r = out_row_add(t);
		out_set_str(r, DC_DEVICE, d->name);
		set_str(r, DC_PORT, d->port);
		set_str(r, DC_PROTOCOL, d->protocol);
		set_num(r, DC_MODE, d->mode);
		set_str(r, DC_MODENAME, d->mode_name);
		set_num(r, DC_UNIT, d->unit);
		set_num(r, DC_DELAY, d->delay);
		set_str(r, DC_ATA, d->ata);
		set_str(r, DC_HOST, d->host);
		set_str(r, DC_DISK, d->disk);
		if (d->disk[0])
			out_set_u64(r, DC_SIZE, d->size);
		else
			out_set_none(r, DC_SIZE);
		set_str(r, DC_MODEL, d->model);
	}
}

/* What the user should know about this machine, in the order it matters. */
static int notes(const struct pp_state *st, char out[][PP_TEXT_MAX * 2], int max)
{
	int n = 0;

	if (!st->parport && n < max)
		snprintf(out[n++], sizeof(out[0]), "no parallel port support: /sys/bus/parport is "
			 "missing; load parport_pc (modprobe parport_pc), from a kernel built with "
			 "CONFIG_PARPORT_PC");
	else if (!st->nports && n < max)
		snprintf(out[n++], sizeof(out[0]), "no parallel ports: the parport bus is there "
			 "but holds no port; load parport_pc (modprobe parport_pc) or enable the "
			 "port in the firmware setup");
	if (!st->pata_parport && n < max)
		snprintf(out[n++], sizeof(out[0]), "pata_parport is not loaded: no "
			 "/sys/bus/pata_parport; load it with modprobe pata_parport probe=0 "
			 "(from a kernel built with CONFIG_PATA_PARPORT), then a protocol module "
			 "such as epat");
	else if (st->pata_parport && !st->nprotos && n < max)
		snprintf(out[n++], sizeof(out[0]), "pata_parport is loaded but no protocol is "
			 "registered: load the module of your adapter (modprobe epat, kbic, ...)");
	if (st->ndevs && st->probe == 1 && n < max)
		snprintf(out[n++], sizeof(out[0]), "pata_parport probes with every protocol loaded "
			 "(probe=1): loading a protocol module now blocks the driver, waiting for the "
			 "port a device holds; echo 0 > /sys/module/pata_parport/parameters/probe");
	if (st->ndevs && !st->log_read && n < max)
		snprintf(out[n++], sizeof(out[0]), "the kernel log could not be read: mode, unit "
			 "and delay unknown (they are only logged)");
	return n;
}

static int new_tables(const struct pp_opts *o, struct out_table *t[3], bool json)
{
	static const struct {
		const char *name;
		const struct out_column *cols;
		const size_t *ncols;
		const char *def;
	} desc[3] = {
		{ "ports", pp_port_cols, &pp_port_ncols, PORT_DEFAULT },
		{ "protocols", pp_proto_cols, &pp_proto_ncols, PROTO_DEFAULT },
		{ "devices", pp_dev_cols, &pp_dev_ncols, DEV_DEFAULT },
	};
	bool want[3] = { o->ports, o->protocols, o->devices };
	bool one = o->ports || o->protocols || o->devices;
	char err[PARSE_ERR_MAX];

	for (int i = 0; i < 3; i++) {
		struct out_opts oo = o->out;
		int ret;

		oo.json = false;
		oo.json_file = NULL;
		/* -o is the one chosen table's; JSON holds the others whole */
		if (one && !want[i])
			oo.columns = NULL;
		if (json)
			oo.noheadings = oo.raw = false;
		ret = out_table_new(&t[i], desc[i].name, desc[i].cols, *desc[i].ncols, desc[i].def,
				    &oo, err);
		if (ret) {
			err_msg("-o: %s", err);
			return ret;
		}
	}
	return 0;
}

struct pp_record {
	const struct pp_state *st;
	struct out_table **t;
};

/* The record's body, after the envelope (output.h). */
static int write_record(struct json *j, const void *arg)
{
	const struct pp_record *rec = arg;
	const struct pp_state *st = rec->st;
	char note[8][PP_TEXT_MAX * 2];
	int n = notes(st, note, 8), ret = 0;

	json_bool(j, "parport", st->parport);
	json_bool(j, "pata_parport", st->pata_parport);
	if (st->probe >= 0)
		json_bool(j, "probe", st->probe);
	else
		json_null(j, "probe");
	json_array_begin(j, "notes");
	for (int i = 0; i < n; i++)
		json_str(j, NULL, note[i]);
	json_array_end(j);
	for (int i = 0; i < 3 && !ret; i++)
		ret = out_table_json(rec->t[i], j);
	return ret;
}

int pp_list(const struct pp_opts *o, struct pp_state *st)
{
	struct out_table *t[3] = { NULL, NULL, NULL };
	bool one = o->ports || o->protocols || o->devices;
	bool show[3] = { one ? o->ports : st->parport,
			 one ? o->protocols : st->pata_parport,
			 one ? o->devices : st->pata_parport };
	char note[8][PP_TEXT_MAX * 2];
	struct pp_record body = { st, t };
	struct out_record rec;
	int ret, n, printed = 0;

	if (o->out.columns && !one) {
		err_msg("-o: choose the table it is for with --ports, --protocols or --devices");
		return 1;
	}
	ret = new_tables(o, t, o->out.json);
	if (!ret)
		ret = out_record_open(&rec, o->out.json, o->out.json_file);
	if (ret) {
		for (int i = 0; i < 3; i++)
			out_table_free(t[i]);
		return 1;
	}
	fill_ports(t[0], st);
	fill_protos(t[1], st);
	pp_fill_devices(t[2], st, NULL);

	if (!o->out.json) {
		n = notes(st, note, 8);
		for (int i = 0; i < n; i++)
			warn_msg("%s", note[i]);
		for (int i = 0; i < 3; i++) {
			if (!show[i])
				continue;
			if (printed++ && !o->out.noheadings && !o->out.raw)
				putchar('\n');
			out_table_print(t[i]);
		}
	}
	ret = out_record_write(&rec, 1, write_record, &body);
	for (int i = 0; i < 3; i++)
		out_table_free(t[i]);
	out_flush_stdout();
	return ret ? 1 : 0;
}

int pp_print_devices(const struct pp_opts *o, const struct pp_state *st,
		     const struct pp_state *before)
{
	struct out_table *t;
	int ret;
	char err[PARSE_ERR_MAX];

	if (out_table_new(&t, "devices", pp_dev_cols, pp_dev_ncols, DEV_DEFAULT, &o->out, err)) {
		if (*err)	/* else the --json-file, reported */
			err_msg("-o: %s", err);
		return 1;
	}
	pp_fill_devices(t, st, before);
	ret = out_table_print(t) ? 1 : 0;
	out_table_free(t);
	return ret;
}
