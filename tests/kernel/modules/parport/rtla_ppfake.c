// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtla_ppfake - a pata_parport protocol that plays a parallel-port IDE
 * adapter with a small ATA disk behind it, for the VM tests of rtla parport.
 *
 * No real adapter exists in the test guests, so without this only the
 * failure paths of new_device could be tested. The protocol answers the
 * driver's probe (test_proto) and emulates the ATA task file of one 4 MiB
 * disk on device 0 that reads zeros and discards writes: enough for libata
 * to identify it and for sd to attach a block device. It never touches the
 * parallel port's I/O ports. Test code only; never load it on a real machine.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "pata_parport.h"

#define PPFAKE_SECTORS	8192	/* 4 MiB */

/* ATA status and error bits used here */
#define ST_ERR	0x01
#define ST_DRQ	0x08
#define ST_DRDY	0x40
#define ER_ABRT	0x04
#define DEV_SLAVE	0x10
#define CTL_SRST	0x04

struct ppfake {
	u8 reg[8];		/* task file as read: 1 error, 2-6, 7 status */
	u8 devctl;
	unsigned int left;	/* sectors still to move in a PIO command */
	unsigned int pos;	/* bytes of the current sector moved */
	u16 buf[256];		/* the sector being read */
};

static void ppfake_idle(struct ppfake *f, u8 err)
{
	f->reg[1] = err;
	f->reg[7] = err ? ST_DRDY | ST_ERR : ST_DRDY;
	f->left = 0;
}

/* The signature of an ATA disk after reset, diagnostics passed. */
static void ppfake_reset(struct ppfake *f)
{
	memset(f->reg, 0, sizeof(f->reg));
	f->reg[1] = 0x01;
	f->reg[2] = 1;
	f->reg[3] = 1;
	f->reg[7] = ST_DRDY;
	f->left = 0;
}

/* ATA strings hold two characters a word, the first in the high byte. */
static void ppfake_id_string(u16 *id, int word, int words, const char *s)
{
	size_t n = strlen(s);
	int i;

	for (i = 0; i < words * 2; i += 2) {
		u8 hi = i < n ? s[i] : ' ';
		u8 lo = i + 1 < n ? s[i + 1] : ' ';

		id[word + i / 2] = cpu_to_le16(hi << 8 | lo);
	}
}

static void ppfake_identify(struct ppfake *f)
{
	u16 *id = f->buf;

	memset(f->buf, 0, sizeof(f->buf));
	id[0] = cpu_to_le16(0x0040);	/* fixed disk */
	id[1] = cpu_to_le16(8);		/* cylinders, heads, sectors: 8192 */
	id[3] = cpu_to_le16(16);
	id[6] = cpu_to_le16(64);
	ppfake_id_string(id, 10, 10, "RTLAPPFAKE0001");
	ppfake_id_string(id, 23, 4, "1.0");
	ppfake_id_string(id, 27, 20, "RTLA FAKE DISK");
	id[49] = cpu_to_le16(0x0200);	/* LBA */
	id[53] = cpu_to_le16(0x0003);	/* words 54-58 and 64-70 valid */
	id[54] = id[1];
	id[55] = id[3];
	id[56] = id[6];
	id[57] = cpu_to_le16(PPFAKE_SECTORS & 0xffff);
	id[58] = cpu_to_le16(PPFAKE_SECTORS >> 16);
	id[60] = id[57];
	id[61] = id[58];
	id[80] = cpu_to_le16(0x007e);	/* ATA-1 to ATA-6 */
	id[83] = cpu_to_le16(0x4000);
	id[84] = cpu_to_le16(0x4000);
	id[86] = id[83];
	id[87] = id[84];
}

static void ppfake_command(struct ppfake *f, u8 cmd)
{
	u32 lba = (f->reg[6] & 0x0f) << 24 | f->reg[5] << 16 | f->reg[4] << 8 | f->reg[3];
	unsigned int count = f->reg[2] ? f->reg[2] : 256;

	f->pos = 0;
	switch (cmd) {
	case 0xec:			/* IDENTIFY DEVICE */
		ppfake_identify(f);
		f->left = 1;
		break;
	case 0x20: case 0x21:		/* READ SECTORS */
	case 0x30: case 0x31:		/* WRITE SECTORS */
		if (lba + count > PPFAKE_SECTORS) {
			ppfake_idle(f, ER_ABRT);
			return;
		}
		memset(f->buf, 0, sizeof(f->buf));
		f->left = count;
		break;
	case 0xef:			/* SET FEATURES */
	case 0x91:			/* INITIALIZE DEVICE PARAMETERS */
	case 0xe7:			/* FLUSH CACHE */
	case 0x10:			/* RECALIBRATE */
	case 0xe0: case 0xe1: case 0xe3: case 0xe5:	/* power management */
		ppfake_idle(f, 0);
		if (cmd == 0xe5)
			f->reg[2] = 0xff;	/* active */
		return;
	default:
		ppfake_idle(f, ER_ABRT);
		return;
	}
	f->reg[1] = 0;
	f->reg[7] = ST_DRDY | ST_DRQ;
}

static bool ppfake_slave(struct ppfake *f)
{
	return f->reg[6] & DEV_SLAVE;
}

static void ppfake_write_regr(struct pi_adapter *pi, int cont, int regr, int val)
{
	struct ppfake *f = (struct ppfake *)pi->private;

	if (cont) {
		if ((val & CTL_SRST) && !(f->devctl & CTL_SRST))
			ppfake_reset(f);
		f->devctl = val;
		return;
	}
	if (regr == 6) {
		f->reg[6] = val;
		return;
	}
	if (ppfake_slave(f))
		return;
	if (regr == 7)
		ppfake_command(f, val);
	else if (regr >= 2)
		f->reg[regr] = val;
}

static int ppfake_read_regr(struct pi_adapter *pi, int cont, int regr)
{
	struct ppfake *f = (struct ppfake *)pi->private;

	if (ppfake_slave(f))
		return 0xff;	/* no device 1 */
	if (cont)
		return f->reg[7];	/* alternate status */
	return f->reg[regr];
}

/* One PIO transfer of count bytes; the command ends with its last sector. */
static void ppfake_move(struct ppfake *f, char *buf, int count, bool reading)
{
	while (count > 0 && f->left) {
		int n = min_t(int, count, 512 - f->pos);

		if (reading)
			memcpy(buf, (u8 *)f->buf + f->pos, n);
		buf += n;
		count -= n;
		f->pos += n;
		if (f->pos == 512) {
			f->pos = 0;
			memset(f->buf, 0, sizeof(f->buf));
			if (!--f->left)
				ppfake_idle(f, 0);
		}
	}
	if (reading && count > 0)
		memset(buf, 0, count);
}

static void ppfake_read_block(struct pi_adapter *pi, char *buf, int count)
{
	ppfake_move((struct ppfake *)pi->private, buf, count, true);
}

static void ppfake_write_block(struct pi_adapter *pi, char *buf, int count)
{
	ppfake_move((struct ppfake *)pi->private, buf, count, false);
}

static void ppfake_connect(struct pi_adapter *pi)
{
}

static void ppfake_disconnect(struct pi_adapter *pi)
{
}

/* 0: the adapter answered, in whatever mode the driver tries. */
static int ppfake_test_proto(struct pi_adapter *pi)
{
	return 0;
}

static void ppfake_log_adapter(struct pi_adapter *pi)
{
	static const char *const mode_string[] = { "4-bit", "8-bit" };

	dev_info(&pi->dev, "rtla fake adapter at 0x%x, mode %d (%s), delay %d\n",
		 pi->port, pi->mode, mode_string[pi->mode], pi->delay);
}

static int ppfake_init_proto(struct pi_adapter *pi)
{
	struct ppfake *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	ppfake_reset(f);
	pi->private = (unsigned long)f;
	return 0;
}

static void ppfake_release_proto(struct pi_adapter *pi)
{
	kfree((void *)pi->private);
	pi->private = 0;
}

static struct pi_protocol ppfake = {
	.owner		= THIS_MODULE,
	.name		= "ppfake",
	.max_mode	= 2,
	.epp_first	= 2,
	.default_delay	= 1,
	.max_units	= 1,
	.write_regr	= ppfake_write_regr,
	.read_regr	= ppfake_read_regr,
	.write_block	= ppfake_write_block,
	.read_block	= ppfake_read_block,
	.connect	= ppfake_connect,
	.disconnect	= ppfake_disconnect,
	.test_proto	= ppfake_test_proto,
	.log_adapter	= ppfake_log_adapter,
	.init_proto	= ppfake_init_proto,
	.release_proto	= ppfake_release_proto,
};

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rtla test protocol: a fake pata_parport adapter with a 4 MiB disk");
module_pata_parport_driver(ppfake);
