// SPDX-License-Identifier: GPL-2.0-only
/*
 * check - the final values of a Dhrystone run against the values the
 * specification says they "should be".
 *
 * Weicker's program prints these for a human to compare; a miscompiled
 * benchmark (or a broken CPU) still produces a score, so every run is
 * checked here and a wrong value turns the run into a failure. Messages use
 * the specification's names so they can be compared with its printout.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dhry.h"

#define SOME_STRING	"DHRYSTONE PROGRAM, SOME STRING"
#define STRING_1	"DHRYSTONE PROGRAM, 1'ST STRING"
#define STRING_2	"DHRYSTONE PROGRAM, 2'ND STRING"

struct verdict {
	int wrong;
	char *why;
	size_t len;
};

static void wrong(struct verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void wrong(struct verdict *v, const char *fmt, ...)
{
	va_list ap;

	/* the first difference is the one worth reading; count the rest */
	if (!v->wrong++ && v->len) {
		va_start(ap, fmt);
		vsnprintf(v->why, v->len, fmt, ap);
		va_end(ap);
	}
}

static void check_int(struct verdict *v, const char *name, long long got, long long want)
{
	if (got != want)
		wrong(v, "%s: %lld, should be %lld", name, got, want);
}

static void check_char(struct verdict *v, const char *name, char got, char want)
{
	if (got != want)
		wrong(v, "%s: '%c' (%d), should be '%c'", name, got, got, want);
}

/* The strings live in fixed arrays: an unterminated one is wrong too. */
static void check_str(struct verdict *v, const char *name, const char *got, const char *want)
{
	if (!memchr(got, '\0', DHRY_STR_LEN))
		wrong(v, "%s: not terminated, should be \"%s\"", name, want);
	else if (strcmp(got, want))
		wrong(v, "%s: \"%s\", should be \"%s\"", name, got, want);
}

static void check_ptr(struct verdict *v, const char *name, const void *got, const void *want)
{
	if (got != want)
		wrong(v, "%s: %p, should be %p", name, got, want);
}

int dhry_check(const struct dhry_final *f, int runs, char *why, size_t len)
{
	struct verdict v = { .why = why, .len = len };

	if (len)
		why[0] = '\0';
	check_int(&v, "Int_Glob", f->int_glob, 5);
	check_int(&v, "Bool_Glob", f->bool_glob, 1);
	check_char(&v, "Ch_1_Glob", f->ch_1_glob, 'A');
	check_char(&v, "Ch_2_Glob", f->ch_2_glob, 'B');
	check_int(&v, "Arr_1_Glob[8]", f->arr_1_glob_8, 7);
	check_int(&v, "Arr_2_Glob[8][7]", f->arr_2_glob_8_7, (long long)runs + 10);

	/*
	 * Ptr_Comp is "implementation-dependent" in the printout, but Proc_1 and
	 * Proc_3 make both records point at Next_Ptr_Glob's record.
	 */
	check_ptr(&v, "Ptr_Glob->Ptr_Comp", f->glob.ptr_comp, f->next_addr);
	check_int(&v, "Ptr_Glob->Discr", f->glob.discr, IDENT_1);
	check_int(&v, "Ptr_Glob->Enum_Comp", f->glob.variant.var_1.enum_comp, IDENT_3);
	check_int(&v, "Ptr_Glob->Int_Comp", f->glob.variant.var_1.int_comp, 17);
	check_str(&v, "Ptr_Glob->Str_Comp", f->glob.variant.var_1.str_comp, SOME_STRING);

	check_ptr(&v, "Next_Ptr_Glob->Ptr_Comp", f->next.ptr_comp, f->glob.ptr_comp);
	check_int(&v, "Next_Ptr_Glob->Discr", f->next.discr, IDENT_1);
	check_int(&v, "Next_Ptr_Glob->Enum_Comp", f->next.variant.var_1.enum_comp, IDENT_2);
	check_int(&v, "Next_Ptr_Glob->Int_Comp", f->next.variant.var_1.int_comp, 18);
	check_str(&v, "Next_Ptr_Glob->Str_Comp", f->next.variant.var_1.str_comp, SOME_STRING);

	check_int(&v, "Int_1_Loc", f->int_1_loc, 5);
	check_int(&v, "Int_2_Loc", f->int_2_loc, 13);
	check_int(&v, "Int_3_Loc", f->int_3_loc, 7);
	check_int(&v, "Enum_Loc", f->enum_loc, IDENT_2);
	check_str(&v, "Str_1_Loc", f->str_1_loc, STRING_1);
	check_str(&v, "Str_2_Loc", f->str_2_loc, STRING_2);
	return v.wrong;
}
