// SPDX-License-Identifier: GPL-2.0-only
/*
 * dhry_1 - Dhrystone 2.1, Pack_1: the global data, Proc_1..Proc_5 and the
 * main program with its measurement loop.
 *
 * Built with DHRY_CFLAGS only (see dhry.h for the ground rules). The comments
 * give what each executed statement must leave behind; dhry_check() verifies
 * the final values after every run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dhry.h"

#ifndef DHRY_BUILD_FLAGS
#define DHRY_BUILD_FLAGS "unknown"
#endif

#ifdef __clang__
const char dhry_compiler[] = __VERSION__;
#else
const char dhry_compiler[] = "gcc " __VERSION__;
#endif
const char dhry_cflags[] = DHRY_BUILD_FLAGS;

/* Global variables of the benchmark; each CPU's worker process has its own (see dhry.h). */
int dhry_int_glob;
char dhry_ch_1_glob;

static struct dhry_record *ptr_glob;
static struct dhry_record *next_ptr_glob;
static int bool_glob;
static char ch_2_glob;
static int arr_1_glob[DHRY_ARR_LEN];
static int arr_2_glob[DHRY_ARR_LEN][DHRY_ARR_LEN];

/*
 * The specification leaves Enum_Loc in Proc_2 unset on a path the program
 * never takes; an initialiser would add a statement to the measured mix.
 */
#ifndef __clang__	/* a gcc warning only */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

/* Executed once per run; *ptr_ref_par becomes Ptr_Glob->Ptr_Comp. */
static void proc_3(struct dhry_record **ptr_ref_par)
{
	if (ptr_glob)
		/* executed */
		*ptr_ref_par = ptr_glob->ptr_comp;
	dhry_proc_7(10, dhry_int_glob, &ptr_glob->variant.var_1.int_comp);
	/* Ptr_Glob->Int_Comp == 17 */
}

/* Executed once per run, with Ptr_Glob. */
static void proc_1(struct dhry_record *ptr_val_par)
{
	/* a "rename" in Ada, a "with" in Pascal: == Next_Ptr_Glob */
	struct dhry_record *next_record = ptr_val_par->ptr_comp;

	*ptr_val_par->ptr_comp = *ptr_glob;
	ptr_val_par->variant.var_1.int_comp = 5;
	next_record->variant.var_1.int_comp = ptr_val_par->variant.var_1.int_comp;
	next_record->ptr_comp = ptr_val_par->ptr_comp;
	proc_3(&next_record->ptr_comp);
	/* Ptr_Val_Par->Ptr_Comp->Ptr_Comp == Ptr_Glob->Ptr_Comp */
	if (next_record->discr == IDENT_1) {
		/* executed */
		next_record->variant.var_1.int_comp = 6;
		dhry_proc_6(ptr_val_par->variant.var_1.enum_comp,
			    &next_record->variant.var_1.enum_comp);
		next_record->ptr_comp = ptr_glob->ptr_comp;
		dhry_proc_7(next_record->variant.var_1.int_comp, 10,
			    &next_record->variant.var_1.int_comp);
	} else {
		/* not executed */
		*ptr_val_par = *ptr_val_par->ptr_comp;
	}
}

/* Executed once per run; *int_par_ref is 1 and becomes 4. */
static void proc_2(int *int_par_ref)
{
	int int_loc;
	enum dhry_enum enum_loc;

	int_loc = *int_par_ref + 10;
	do {
		/* executed once */
		if (dhry_ch_1_glob == 'A') {
			/* executed */
			int_loc -= 1;
			*int_par_ref = int_loc - dhry_int_glob;
			enum_loc = IDENT_1;
		}
	} while (enum_loc != IDENT_1);	/* true: the loop ends */
}

/* Executed once per run. */
static void proc_4(void)
{
	int bool_loc;

	bool_loc = dhry_ch_1_glob == 'A';
	bool_glob = bool_loc | bool_glob;
	ch_2_glob = 'B';
}

/* Executed once per run. */
static void proc_5(void)
{
	dhry_ch_1_glob = 'A';
	bool_glob = 0;
}

/*
 * Weicker's program times the loop with times(), the process's user time;
 * CPU time is that measure, so a task that preempts the benchmark does not
 * count against the CPU's score.
 */
static uint64_t cpu_time_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* The main program: Main and Proc_0 in the Ada version. */
int dhry_run(int runs, struct dhry_final *fin, uint64_t *ns)
{
	int int_1_loc;
	int int_2_loc;
	int int_3_loc;
	char ch_index;
	enum dhry_enum enum_loc;
	char str_1_loc[DHRY_STR_LEN];
	char str_2_loc[DHRY_STR_LEN];
	int run_index;
	int number_of_runs = runs;
	uint64_t begin, end;

	/* Initialisations. An earlier run must not leak into this one. */
	dhry_int_glob = 0;
	dhry_ch_1_glob = 0;
	bool_glob = 0;
	ch_2_glob = 0;
	memset(arr_1_glob, 0, sizeof(arr_1_glob));
	memset(arr_2_glob, 0, sizeof(arr_2_glob));
	next_ptr_glob = calloc(1, sizeof(*next_ptr_glob));
	ptr_glob = calloc(1, sizeof(*ptr_glob));
	if (!next_ptr_glob || !ptr_glob) {
		free(next_ptr_glob);
		free(ptr_glob);
		return -ENOMEM;
	}

	ptr_glob->ptr_comp = next_ptr_glob;
	ptr_glob->discr = IDENT_1;
	ptr_glob->variant.var_1.enum_comp = IDENT_3;
	ptr_glob->variant.var_1.int_comp = 40;
	strcpy(ptr_glob->variant.var_1.str_comp, "DHRYSTONE PROGRAM, SOME STRING");
	strcpy(str_1_loc, "DHRYSTONE PROGRAM, 1'ST STRING");
	/* missing from the first published program: without it the value is undefined */
	arr_2_glob[8][7] = 10;

	begin = cpu_time_ns();

	for (run_index = 1; run_index <= number_of_runs; ++run_index) {
		proc_5();
		proc_4();
		/* Ch_1_Glob == 'A', Ch_2_Glob == 'B', Bool_Glob == true */
		int_1_loc = 2;
		int_2_loc = 3;
		strcpy(str_2_loc, "DHRYSTONE PROGRAM, 2'ND STRING");
		enum_loc = IDENT_2;
		bool_glob = !dhry_func_2(str_1_loc, str_2_loc);
		/* Bool_Glob == 1 */
		while (int_1_loc < int_2_loc) {
			/* body executed once */
			int_3_loc = 5 * int_1_loc - int_2_loc;
			/* Int_3_Loc == 7 */
			dhry_proc_7(int_1_loc, int_2_loc, &int_3_loc);
			/* Int_3_Loc == 7 */
			int_1_loc += 1;
		}
		/* Int_1_Loc == 3, Int_2_Loc == 3, Int_3_Loc == 7 */
		dhry_proc_8(arr_1_glob, arr_2_glob, int_1_loc, int_3_loc);
		/* Int_Glob == 5 */
		proc_1(ptr_glob);
		for (ch_index = 'A'; ch_index <= ch_2_glob; ++ch_index) {
			/* body executed twice */
			if (enum_loc == dhry_func_1(ch_index, 'C')) {
				/* not executed */
				dhry_proc_6(IDENT_1, &enum_loc);
				strcpy(str_2_loc, "DHRYSTONE PROGRAM, 3'RD STRING");
				int_2_loc = run_index;
				dhry_int_glob = run_index;
			}
		}
		/* Int_1_Loc == 3, Int_2_Loc == 3, Int_3_Loc == 7 */
		int_2_loc = int_2_loc * int_1_loc;
		int_1_loc = int_2_loc / int_3_loc;
		int_2_loc = 7 * (int_2_loc - int_3_loc) - int_1_loc;
		/* Int_1_Loc == 1, Int_2_Loc == 13, Int_3_Loc == 7 */
		proc_2(&int_1_loc);
		/* Int_1_Loc == 5 */
	}

	end = cpu_time_ns();
	*ns = end - begin;

	fin->int_glob = dhry_int_glob;
	fin->bool_glob = bool_glob;
	fin->ch_1_glob = dhry_ch_1_glob;
	fin->ch_2_glob = ch_2_glob;
	fin->arr_1_glob_8 = arr_1_glob[8];
	fin->arr_2_glob_8_7 = arr_2_glob[8][7];
	fin->glob = *ptr_glob;
	fin->next = *next_ptr_glob;
	fin->glob_addr = ptr_glob;
	fin->next_addr = next_ptr_glob;
	fin->int_1_loc = int_1_loc;
	fin->int_2_loc = int_2_loc;
	fin->int_3_loc = int_3_loc;
	fin->enum_loc = enum_loc;
	memcpy(fin->str_1_loc, str_1_loc, sizeof(str_1_loc));
	memcpy(fin->str_2_loc, str_2_loc, sizeof(str_2_loc));

	free(ptr_glob);
	free(next_ptr_glob);
	ptr_glob = next_ptr_glob = NULL;
	return 0;
}
