// SPDX-License-Identifier: GPL-2.0-only
/*
 * report - `rtla report RECORD.json...`: the JSON records the other commands
 * write, drawn and tabulated as one self-contained HTML page (inline SVG
 * and CSS; no script, font or image fetched), or with --svg one plot alone.
 *
 * Every record is read and checked before anything is written: a file that
 * is not a record is the one-line error, and the destination is left as it
 * was. The page is made whole in memory and then replaces the destination
 * (fs_write_replace), so a reader never sees half a report. The same records
 * give the same bytes: the page holds no time of its own making.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "fsutil.h"
#include "jsonread.h"
#include "msg.h"
#include "output.h"
#include "plot/plots.h"
#include "plot/svg.h"
#include "report/report.h"

enum { OPT_HTML = CLI_LONG, OPT_SVG };

static const struct cli_option report_options[] = {
	CLI_VALUE(OPT_HTML, "html", "FILE",
		  "write the report to FILE (- or no --html and no --svg: standard output)",
		  .flags = CLI_FILE, .complete = CLI_COMP_FILE),
	CLI_VALUE(OPT_SVG, "svg", "FILE",
		  "write the first plot of the first record alone, as an SVG file",
		  .flags = CLI_FILE, .complete = CLI_COMP_FILE),
	CLI_OPT_HELP("show this help"),
	CLI_OPT_VERSION("show the version"),
	CLI_OPT_END
};

static void report_usage(FILE *f);

const struct cli_spec report_cli = {
	.command = "report",
	.options = report_options,
	.usage = report_usage,
	.positional = CLI_COMP_FILE,
};

static void report_usage(FILE *f)
{
	fputs("Usage: rtla report [options] RECORD.json...\n\n"
	      "Draw the JSON records of rtla's commands (-J, --json-file) as one HTML page\n"
	      "that opens offline: latency and noise histograms and series per CPU, DMIPS\n"
	      "per core, the tables with their findings first, a section per record.\n\n"
	      "Options:\n", f);
	cli_print_options(&report_cli, f);
}

struct page {
	struct jv **recs;
	char **paths;
	int n;
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void write_page(FILE *f, const void *arg)
{
	const struct page *pg = arg;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	      "<title>rtla report: ", f);
	for (int i = 0; i < pg->n; i++) {
		fputs(i ? ", " : "", f);
		xml_text(f, jv_str(pg->recs[i], "command", "?"));
		fputs(" on ", f);
		xml_text(f, jv_str(pg->recs[i], "host", "?"));
	}
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>rtla report</h1>\n", report_css);
	fputs("<nav><ol>\n", f);
	for (int i = 0; i < pg->n; i++) {
		fprintf(f, "<li><a href=\"#record-%d\">", i + 1);
		xml_text(f, jv_str(pg->recs[i], "command", "?"));
		fputs("</a> on ", f);
		xml_text(f, jv_str(pg->recs[i], "host", "?"));
		fputs(": <span class=\"verdict\">", f);
		xml_text(f, jv_str(pg->recs[i], "verdict", "-"));
		fputs("</span> (", f);
		xml_text(f, base_name(pg->paths[i]));
		fputs(")</li>\n", f);
	}
	fputs("</ol></nav>\n", f);
	for (int i = 0; i < pg->n; i++) {
		fprintf(f, "<section id=\"record-%d\">\n", i + 1);
		report_section(f, pg->recs[i], base_name(pg->paths[i]));
		fputs("</section>\n", f);
	}
	fputs("<footer>Made by rtla report from the records named above.</footer>\n"
	      "</body>\n</html>\n", f);
}

/* The page in memory: 0, or -errno; *TEXT to free */
static int render(const struct page *pg, char **text, size_t *len)
{
	FILE *m = open_memstream(text, len);

	if (!m)
		return -errno;
	write_page(m, pg);
	if (fclose(m))
		return -ENOMEM;
	return 0;
}

/* TEXT to PATH ("-": stdout), whole or not at all */
static int emit(const char *path, const char *text, size_t len)
{
	int ret;

	if (!strcmp(path, "-")) {
		fwrite(text, 1, len, stdout);
		return 0;	/* main() reports a failed stdout, once */
	}
	ret = fs_write_text(path, text, len);
	if (ret)
		err_msg("--html: %s: %s", path, strerror(-ret));
	return ret;
}

/* A record of rtla's: an object with the envelope's schema name "rtla-..." */
static struct jv *load(const char *path)
{
	char err[JV_ERR_MAX];
	struct jv *v = jv_parse_file(path, err);

	if (!v) {
		err_msg("%s: %s", path, err);
		return NULL;
	}
	if (v->type != JV_OBJ || strncmp(plot_schema(v), "rtla-", 5)) {
		err_msg("%s: not a record of rtla (no schema name \"rtla-...\"; write one with -J or "
			"--json-file)", path);
		jv_free(v);
		return NULL;
	}
	return v;
}

int cmd_report(int argc, char **argv)
{
	const char *html = NULL, *svg = NULL;
	struct page pg = { 0 };
	char *text = NULL;
	size_t len = 0;
	struct cli_parser p;
	int id, status = EXIT_ERROR;

	cli_begin(&p, &report_cli, argc, argv);
	while ((id = cli_next(&p)) > 0) {
		if (id == OPT_HTML)
			html = p.arg;
		else if (id == OPT_SVG)
			svg = p.arg;
	}
	if (id < 0)
		return id == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
	if (p.optind >= argc) {
		cli_usage_error(&report_cli, "missing argument", "expected RECORD.json...");
		return EXIT_ERROR;
	}
	if (html && svg && !strcmp(html, "-") && !strcmp(svg, "-")) {
		cli_usage_error(&report_cli, "--html and --svg both on standard output", "-");
		return EXIT_ERROR;
	}
	pg.n = argc - p.optind;
	pg.paths = argv + p.optind;
	pg.recs = calloc(pg.n, sizeof(*pg.recs));
	if (!pg.recs) {
		err_msg("out of memory");
		return EXIT_ERROR;
	}
	for (int i = 0; i < pg.n; i++)
		if (!(pg.recs[i] = load(pg.paths[i])))
			goto out;
	if (svg) {
		int ret = plot_svg_file(svg, pg.recs[0]);

		if (ret == -ENODATA)
			err_msg("%s: nothing to plot in a record of %s", pg.paths[0], plot_schema(pg.recs[0]));
		else if (ret)
			err_msg("--svg: %s: %s", svg, strerror(-ret));
		if (ret)
			goto out;
	}
	if (html || !svg) {
		if (render(&pg, &text, &len)) {
			err_msg("out of memory");
			goto out;
		}
		if (emit(html ? html : "-", text, len))
			goto out;
	}
	status = EXIT_PASSED;
out:
	free(text);
	for (int i = 0; i < pg.n; i++)
		jv_free(pg.recs[i]);
	free(pg.recs);
	return status;
}
