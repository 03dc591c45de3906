/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace_events - the event formats a run parses, and no others.
 *
 * libtracefs' loaders (tracefs_local_events*) also read /proc/kallsyms,
 * saved_cmdlines and printk_formats: seconds of CPU at start on a small
 * board (and ~15 s under ASan), for symbol names no rtla decoder prints.
 * These read the header page and the format files named, from the
 * top-level tracefs directory.
 */
#ifndef RTLA_TRACE_EVENTS_H
#define RTLA_TRACE_EVENTS_H

#include <stddef.h>

struct tep_format_field;
struct tep_handle;
struct tep_record;

/* A handle with the header page parsed; NULL with errno set. */
struct tep_handle *trace_events_new(int nr_cpus);
/* Parse events/SYSTEM/EVENT/format; 0 or -errno. */
int trace_events_add(struct tep_handle *tep, const char *system, const char *event);
/* Parse every event of events/SYSTEM; the number parsed, or -errno. */
int trace_events_add_system(struct tep_handle *tep, const char *system);

/* A number field of a record's DATA; DFLT when F is NULL or unreadable. */
long long trace_events_read_num(struct tep_format_field *f, void *data, long long dflt);
/* A char[] or __data_loc/__rel_loc string field into DST (SIZE bytes, always terminated). */
void trace_events_read_str(struct tep_format_field *f, struct tep_record *r, char *dst,
			   size_t size);

#endif
