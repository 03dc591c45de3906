// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_events - parse the format files of the events a run decodes.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <tracefs.h>

#include "trace_events.h"

static int parse_file(struct tep_handle *tep, const char *file, const char *system)
{
	int size = 0, ret;
	char *buf = tracefs_instance_file_read(NULL, file, &size);

	if (!buf)
		return errno ? -errno : -ENOENT;
	ret = system ? tep_parse_event(tep, buf, size, system)
		     : tep_parse_header_page(tep, buf, size, sizeof(long));
	free(buf);
	return ret ? -EINVAL : 0;
}

struct tep_handle *trace_events_new(int nr_cpus)
{
	struct tep_handle *tep = tep_alloc();
	int ret;

	if (!tep) {
		errno = ENOMEM;
		return NULL;
	}
	ret = parse_file(tep, "events/header_page", NULL);
	if (ret) {
		tep_free(tep);
		errno = -ret;
		return NULL;
	}
	tep_set_cpus(tep, nr_cpus);
	tep_set_long_size(tep, tep_get_header_page_size(tep));
	return tep;
}

int trace_events_add(struct tep_handle *tep, const char *system, const char *event)
{
	char file[512];

	snprintf(file, sizeof(file), "events/%s/%s/format", system, event);
	return parse_file(tep, file, system);
}

int trace_events_add_system(struct tep_handle *tep, const char *system)
{
	char *dir = tracefs_get_tracing_file("events");
	char path[4096];
	struct dirent *de;
	int n = 0;
	DIR *d;

	if (!dir)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/%s", dir, system);
	tracefs_put_tracing_file(dir);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (!trace_events_add(tep, system, de->d_name))
			n++;
	}
	closedir(d);
	return n;
}

long long trace_events_read_num(struct tep_format_field *f, void *data, long long dflt)
{
	unsigned long long v;

	if (!f || tep_read_number_field(f, data, &v))
		return dflt;
	return (long long)v;
}

void trace_events_read_str(struct tep_format_field *f, struct tep_record *r, char *dst,
			   size_t size)
{
	unsigned long long v;
	unsigned off, len;

	dst[0] = '\0';
	if (!f)
		return;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (tep_read_number_field(f, r->data, &v))
			return;
		off = v & 0xffff;
		len = (v >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	} else {
		off = f->offset;
		len = f->size;
	}
	if (off >= (unsigned)r->size)
		return;
	if (len > (unsigned)r->size - off)
		len = r->size - off;
	if (len > size - 1)
		len = size - 1;
	memcpy(dst, (char *)r->data + off, len);
	dst[len] = '\0';
}

static const struct trace_event_rule *rule_of(const struct tep_event *e,
					      const struct trace_event_rule *rules, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!fnmatch(rules[i].system, e->system, 0) && !fnmatch(rules[i].event, e->name, 0))
			return &rules[i];
	return NULL;
}

static void type_from_rule(struct trace_event_type *ty, struct tep_event *e,
			   const struct trace_event_rule *rule)
{
	ty->kind = rule->kind;
	for (int k = 0; k < TRACE_EVENT_FIELDS; k++) {
		if (!rule->field[k])
			continue;
		ty->field[k] = tep_find_any_field(e, rule->field[k]);
		if (!ty->field[k] && rule->all_fields)
			ty->kind = -1;
	}
	if (rule->str)
		ty->str = tep_find_field(e, rule->str);
}

int trace_event_types_build(struct trace_event_types *t, struct tep_handle *tep,
			    const struct trace_event_rule *rules, size_t n)
{
	struct tep_event **all = tep_list_events(tep, TEP_EVENT_SORT_ID);
	int max_id = -1;

	t->by_id = NULL;
	t->nr = 0;
	if (!all)
		return -ENOMEM;
	for (int i = 0; all[i]; i++)
		if (all[i]->id > max_id)
			max_id = all[i]->id;
	t->by_id = calloc(max_id + 1, sizeof(*t->by_id));
	if (!t->by_id && max_id >= 0)
		return -ENOMEM;
	t->nr = max_id + 1;
	for (int i = 0; i < t->nr; i++)
		t->by_id[i].kind = -1;
	for (int i = 0; all[i]; i++) {
		const struct trace_event_rule *rule = rule_of(all[i], rules, n);
		struct trace_event_type *ty = &t->by_id[all[i]->id];

		ty->name = all[i]->name;
		if (rule)
			type_from_rule(ty, all[i], rule);
	}
	return 0;
}

const struct trace_event_type *trace_event_type_of(const struct trace_event_types *t,
						   const struct tep_event *e)
{
	if (e->id < 0 || e->id >= t->nr || t->by_id[e->id].kind < 0)
		return NULL;
	return &t->by_id[e->id];
}

void trace_event_types_free(struct trace_event_types *t)
{
	free(t->by_id);
	t->by_id = NULL;
	t->nr = 0;
}
