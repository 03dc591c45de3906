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

#include <stdbool.h>
#include <stddef.h>

struct tep_event;
struct tep_format_field;
struct tep_handle;
struct tep_record;

/*
 * Which events a reader decodes, and how: the events matching SYSTEM and
 * EVENT (fnmatch(3) patterns) are of KIND, with up to four number fields
 * and one string field looked up by name once. The first matching rule wins.
 */
#define TRACE_EVENT_FIELDS	4
struct trace_event_rule {
	const char *system, *event;
	int kind;
	const char *field[TRACE_EVENT_FIELDS];	/* in the reader's own order; NULL: unused */
	const char *str;			/* NULL: none */
	bool all_fields;			/* an event lacking one is not decoded */
};

/* A rule: TRACE_EVENT_RULE("irq", "irq_handler_entry", KIND, .field = { "irq" }, .str = "name") */
#define TRACE_EVENT_RULE(sys, ev, k, ...) { .system = (sys), .event = (ev), .kind = (k), __VA_ARGS__ }

struct trace_event_type {
	int kind;				/* -1: not decoded */
	const char *name;			/* the event's */
	struct tep_format_field *field[TRACE_EVENT_FIELDS], *str;
};

struct trace_event_types {
	struct trace_event_type *by_id;
	int nr;
};

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

/* Build the types of every parsed event from RULES (N of them). 0, or -ENOMEM. */
int trace_event_types_build(struct trace_event_types *t, struct tep_handle *tep,
			    const struct trace_event_rule *rules, size_t n);
/* The type of E when a rule decodes it, else NULL. */
const struct trace_event_type *trace_event_type_of(const struct trace_event_types *t,
						   const struct tep_event *e);
void trace_event_types_free(struct trace_event_types *t);

#endif
