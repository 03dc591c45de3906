// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of parport's pure parts: the protocol table, the parser of
 * `add`'s words, the checks of a request against a state, and the parser of
 * the protocols' log_adapter lines.
 */
#include <errno.h>
#include <string.h>

#include "parport/parport.h"
#include "tap.h"

static void test_known(void)
{
	const struct pp_known *k[4];

	ok(pp_known_protocol("epat") && pp_known_protocol("epat")->max_mode == 6, "known: epat, 6 modes");
	ok(!pp_known_protocol("kbic"), "known: kbic is no protocol");
	is_int(pp_module_protocols("kbic", k, 4), 2, "known: kbic registers two");
	is_str(k[0]->name, "k951", "known: k951 first");
	is_str(k[1]->name, "k971", "known: then k971");
	is_int(pp_module_protocols("epat", k, 4), 1, "known: epat registers itself");
	is_str(pp_mode_name(pp_known_protocol("k951"), 4), "EPP_16", "known: kbic's mode 4, as the driver spells it");
	ok(!pp_mode_name(pp_known_protocol("aten"), 2), "known: aten has no mode 2");
	ok(!pp_mode_name(NULL, 0), "known: no name for an unknown protocol");
}

static int parse(struct pp_request *rq, char *err, const char *a, const char *b,
		 const char *c, const char *d, const char *e, const char *f)
{
	char *w[6] = { (char *)a, (char *)b, (char *)c, (char *)d, (char *)e, (char *)f };
	int n = 0;

	while (n < 6 && w[n])
		n++;
	return pp_request_parse(n, w, rq, err, 256);
}

static void test_parse(void)
{
	struct pp_request rq;
	char err[256];

	ok(!parse(&rq, err, "parport0", "epat", NULL, NULL, NULL, NULL), "parse: PORT PROTOCOL");
	is_str(rq.line, "parport0 epat", "parse: only the fields given are written");
	ok(rq.mode == -1 && rq.unit == -1 && rq.delay == -1, "parse: the rest is -1");
	ok(!parse(&rq, err, "parport0", "bpck", "2", "3", "4", NULL), "parse: all five");
	is_str(rq.line, "parport0 bpck 2 3 4", "parse: all five written");
	ok(!parse(&rq, err, "parport0", "epat", "auto", "-1", "0", NULL), "parse: auto and -1");
	is_str(rq.line, "parport0 epat -1 -1 0", "parse: auto is -1");
	ok(!parse(&rq, err, "auto", NULL, NULL, NULL, NULL, NULL), "parse: auto alone");
	is_str(rq.line, "auto", "parse: auto written alone");
	ok(!parse(&rq, err, "parport12", "auto", NULL, NULL, NULL, NULL), "parse: a protocol of auto");

	is_int(parse(&rq, err, "parport0", NULL, NULL, NULL, NULL, NULL), -EINVAL, "parse: a port needs a protocol");
	is_int(parse(&rq, err, "lpt0", "epat", NULL, NULL, NULL, NULL), -EINVAL, "parse: lpt0");
	is_str(err, "not a port name (parportN or auto): lpt0", "parse: lpt0's message");
	is_int(parse(&rq, err, "parport", "epat", NULL, NULL, NULL, NULL), -EINVAL, "parse: no number");
	is_int(parse(&rq, err, "parport01", "epat", NULL, NULL, NULL, NULL), -EINVAL, "parse: a leading zero");
	is_int(parse(&rq, err, "parport0x", "epat", NULL, NULL, NULL, NULL), -EINVAL, "parse: trailing junk");
	is_int(parse(&rq, err, "parport0", "toolongname", NULL, NULL, NULL, NULL), -EINVAL,
	       "parse: a protocol over 7 characters");
	is_int(parse(&rq, err, "parport0", "epat", "-2", NULL, NULL, NULL), -EINVAL, "parse: mode -2");
	is_str(err, "MODE must be a number from -1 (auto) to 63: -2", "parse: mode's message");
	is_int(parse(&rq, err, "parport0", "epat", "64", NULL, NULL, NULL), -EINVAL, "parse: mode 64");
	is_int(parse(&rq, err, "parport0", "epat", "0", "256", NULL, NULL), -EINVAL, "parse: unit 256");
	is_int(parse(&rq, err, "parport0", "epat", "0", "0", "1001", NULL), -EINVAL, "parse: delay 1001");
	is_int(parse(&rq, err, "parport0", "epat", "1x", NULL, NULL, NULL), -EINVAL, "parse: 1x");
	is_int(parse(&rq, err, "parport0", "epat", "", NULL, NULL, NULL), -EINVAL, "parse: empty mode");
	is_int(parse(&rq, err, "parport0", "epat", "0", "0", "0", "0"), -EINVAL, "parse: six words");
	is_int(pp_request_parse(0, NULL, &rq, err, sizeof(err)), -EINVAL, "parse: nothing");
}

/* parport0 at 0x378, parport1 at 0x3bc; epat and ppfake registered. */
static void state(struct pp_state *st)
{
	memset(st, 0, sizeof(*st));
	st->parport = st->pata_parport = true;
	st->nports = 2;
	strcpy(st->ports[0].name, "parport0");
	st->ports[0].base = 0x378;
	strcpy(st->ports[1].name, "parport1");
	st->ports[1].number = 1;
	st->ports[1].base = 0x3bc;
	st->nprotos = 2;
	strcpy(st->protos[0].name, "epat");
	strcpy(st->protos[1].name, "ppfake");
}

static int check(const struct pp_state *st, char *err, const char *a, const char *b,
		 const char *c, const char *d)
{
	struct pp_request rq;

	if (parse(&rq, err, a, b, c, d, NULL, NULL))
		return -100;
	return pp_request_check(st, &rq, err, 512);
}

static void test_check(void)
{
	struct pp_state st;
	char err[512];

	state(&st);
	is_int(check(&st, err, "parport0", "epat", NULL, NULL), 0, "check: fine");
	is_int(check(&st, err, "parport0", "epat", "5", NULL), 0, "check: epat's last mode");
	is_int(check(&st, err, "parport0", "ppfake", "9", NULL), 0, "check: an unknown protocol's modes are the kernel's to judge");
	is_int(check(&st, err, "parport0", "epat", "6", NULL), -EINVAL, "check: epat mode 6");
	is_str(err, "protocol epat has modes 0 to 5 (4-bit to EPP-32), not 6", "check: the mode's message");
	is_int(check(&st, err, "parport0", "epat", "0", "1"), -EINVAL, "check: epat unit 1");
	is_int(check(&st, err, "parport2", "epat", NULL, NULL), -EINVAL, "check: no parport2");
	is_str(err, "no port parport2 (ports: parport0, parport1)", "check: the ports named");
	is_int(check(&st, err, "parport0", "bogus", NULL, NULL), -EINVAL, "check: bogus");
	is_str(err, "no protocol bogus is registered (registered: epat, ppfake)", "check: bogus's message");
	is_int(check(&st, err, "parport0", "kbic", NULL, NULL), -EINVAL, "check: a module name");
	is_str(err, "kbic is a module, not a protocol: it registers k951 or k971; give one of those "
	       "(after modprobe of the module)", "check: the module's protocols named");
	is_int(check(&st, err, "parport0", "aten", NULL, NULL), -EINVAL, "check: aten not loaded");
	is_str(err, "protocol aten is not registered: load its module (modprobe aten); registered now: "
	       "epat, ppfake", "check: the module to load");
	is_int(check(&st, err, "parport1", "epat", "3", NULL), -EINVAL, "check: EPP on an unaligned base");
	is_str(err, "mode 3 (EPP-8) of epat is an EPP mode, which needs a port base aligned to 8; "
	       "parport1 is at 0x3bc", "check: the alignment's message");
	is_int(check(&st, err, "parport1", "epat", "2", NULL), 1, "check: parport1 is tried, with a note");
	ok(strstr(err, "only admits parport0") != NULL, "check: the parport0-only note");

	strcpy(st.ports[0].active, "pata_parport");
	st.ndevs = 1;
	strcpy(st.devs[0].name, "pata_parport.0");
	strcpy(st.devs[0].port, "parport0");
	strcpy(st.devs[0].protocol, "ppfake");
	is_int(check(&st, err, "parport0", "ppfake", NULL, NULL), -EINVAL, "check: a second ppfake");
	is_str(err, "parport0 already has a ppfake device: pata_parport.0", "check: the duplicate named");
	is_int(check(&st, err, "parport0", "epat", NULL, NULL), -EINVAL, "check: a held port");
	ok(strstr(err, "parport0 is held by pata_parport (pata_parport.0, protocol ppfake)") == err,
	   "check: the holder named");
	is_int(check(&st, err, "auto", NULL, NULL, NULL), -EINVAL, "check: auto over a held port");
	is_int(check(&st, err, "parport1", "epat", NULL, NULL), 1, "check: another port is free");
}

static void test_log(void)
{
	struct pp_dev d = { .mode = -1, .unit = -1, .delay = -1 };

	ok(pp_parse_adapter_log("ppfake pata_parport.0: rtla fake adapter at 0x278, mode 1 (8-bit), delay 1",
				"pata_parport.0", &d), "log: a log_adapter line");
	ok(d.mode == 1 && d.delay == 1 && d.unit == -1, "log: mode and delay");
	is_str(d.mode_name, "8-bit", "log: the mode's name");
	ok(pp_parse_adapter_log("bpck6 pata_parport.3: Micro Solutions BACKPACK Drive unit 2 at 0x378, "
				"mode:4 (EPP-32), delay 0", "pata_parport.3", &d), "log: bpck6's form");
	ok(d.mode == 4 && d.unit == 2 && d.delay == 0, "log: bpck6's unit, mode, delay");
	ok(!pp_parse_adapter_log("epat pata_parport.0: Adapter not found", "pata_parport.0", &d),
	   "log: not an adapter line");
	ok(!pp_parse_adapter_log("epat pata_parport.10: Shuttle EPAT chip c6 at 0x378, mode 0 (4-bit), delay 1",
				 "pata_parport.1", &d), "log: another device's line");
}

int main(void)
{
	test_known();
	test_parse();
	test_check();
	test_log();
	return tap_done();
}
