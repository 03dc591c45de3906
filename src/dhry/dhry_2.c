// SPDX-License-Identifier: GPL-2.0-only
/*
 * dhry_2 - Dhrystone 2.1, Pack_2: Proc_6..Proc_8 and Func_1..Func_3.
 *
 * A separate translation unit, as the ground rules demand, built with
 * DHRY_CFLAGS only (see dhry.h).
 */
#include <string.h>

#include "dhry.h"

/* Func_2 leaves Ch_Loc unset on a path the program never takes (see dhry_1.c). */
#ifndef __clang__	/* a gcc warning only */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

/* Executed once per run, with Ident_3. */
static int func_3(enum dhry_enum enum_par_val)
{
	enum dhry_enum enum_loc;

	enum_loc = enum_par_val;
	if (enum_loc == IDENT_3) {
		/* executed */
		return 1;
	} else {
		/* not executed */
		return 0;
	}
}

/* Executed once per run: Ident_3 in, *enum_ref_par becomes Ident_2. */
void dhry_proc_6(enum dhry_enum enum_val_par, enum dhry_enum *enum_ref_par)
{
	*enum_ref_par = enum_val_par;
	if (!func_3(enum_val_par))
		/* not executed */
		*enum_ref_par = IDENT_4;
	switch (enum_val_par) {
	case IDENT_1:
		*enum_ref_par = IDENT_1;
		break;
	case IDENT_2:
		if (dhry_int_glob > 100)
			*enum_ref_par = IDENT_1;
		else
			*enum_ref_par = IDENT_4;
		break;
	case IDENT_3:
		/* executed */
		*enum_ref_par = IDENT_2;
		break;
	case IDENT_4:
		break;
	case IDENT_5:
		*enum_ref_par = IDENT_3;
		break;
	}
}

/*
 * Executed three times per run:
 *   (2, 3)  -> 7
 *   (10, 5) -> 17
 *   (6, 10) -> 18
 */
void dhry_proc_7(int int_1_par_val, int int_2_par_val, int *int_par_ref)
{
	int int_loc;

	int_loc = int_1_par_val + 2;
	*int_par_ref = int_2_par_val + int_loc;
}

/* Executed once per run, with 3 and 7. */
void dhry_proc_8(int arr_1_par_ref[DHRY_ARR_LEN], int arr_2_par_ref[DHRY_ARR_LEN][DHRY_ARR_LEN],
		 int int_1_par_val, int int_2_par_val)
{
	int int_index;
	int int_loc;

	int_loc = int_1_par_val + 5;
	arr_1_par_ref[int_loc] = int_2_par_val;
	arr_1_par_ref[int_loc + 1] = arr_1_par_ref[int_loc];
	arr_1_par_ref[int_loc + 30] = int_loc;
	for (int_index = int_loc; int_index <= int_loc + 1; ++int_index)
		arr_2_par_ref[int_loc][int_index] = int_loc;
	arr_2_par_ref[int_loc][int_loc - 1] += 1;
	arr_2_par_ref[int_loc + 20][int_loc] = arr_1_par_ref[int_loc];
	dhry_int_glob = 5;
}

/*
 * Executed three times per run, always returning Ident_1:
 *   ('R', 'Y') from Func_2, then ('A', 'C') and ('B', 'C') from the main loop.
 */
enum dhry_enum dhry_func_1(char ch_1_par_val, char ch_2_par_val)
{
	char ch_1_loc;
	char ch_2_loc;

	ch_1_loc = ch_1_par_val;
	ch_2_loc = ch_1_loc;
	if (ch_2_loc != ch_2_par_val) {
		/* executed */
		return IDENT_1;
	} else {
		/* not executed */
		dhry_ch_1_glob = ch_1_loc;
		return IDENT_2;
	}
}

/*
 * Executed once per run, with "DHRYSTONE PROGRAM, 1'ST STRING" and
 * "DHRYSTONE PROGRAM, 2'ND STRING"; returns false.
 */
int dhry_func_2(char str_1_par_ref[DHRY_STR_LEN], char str_2_par_ref[DHRY_STR_LEN])
{
	int int_loc;
	char ch_loc;

	int_loc = 2;
	while (int_loc <= 2) {
		/* body executed once */
		if (dhry_func_1(str_1_par_ref[int_loc], str_2_par_ref[int_loc + 1]) == IDENT_1) {
			/* executed */
			ch_loc = 'A';
			int_loc += 1;
		}
	}
	if (ch_loc >= 'W' && ch_loc < 'Z')
		/* not executed */
		int_loc = 7;
	if (ch_loc == 'R') {
		/* not executed */
		return 1;
	} else {
		/* executed */
		if (strcmp(str_1_par_ref, str_2_par_ref) > 0) {
			/* not executed */
			int_loc += 7;
			dhry_int_glob = int_loc;
			return 1;
		} else {
			/* executed */
			return 0;
		}
	}
}
