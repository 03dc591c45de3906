/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dhry - Dhrystone 2.1 (R. P. Weicker, 1988), written from its specification.
 *
 * dhry_1.c is the benchmark's Pack_1 (its global data, Proc_1..Proc_5 and
 * the main program with the measurement loop), dhry_2.c is Pack_2 (Proc_6..
 * Proc_8, Func_1..Func_3). The ground rules say: separate compilation, no
 * procedure merging; the Makefile builds both with DHRY_CFLAGS (no inlining,
 * no LTO, no cross-procedure IPA) and nothing else goes into those two files.
 *
 * The names are ours (lower case, dhry_ prefix where they cross files); the
 * statements, their order and their types are the benchmark's.
 *
 * Per-CPU runs need per-CPU state. The benchmark's globals stay plain
 * globals, and each CPU runs the benchmark in a process of its own (runner.c):
 * the code is then exactly the specified code. Thread-local globals would put
 * a thread-pointer access (and, for the arrays passed to Proc_8, an extra
 * instruction) where the reference has a global; measured on gcc 12 / Zen 3
 * that is one more instruction per Dhrystone and about 2 % less speed. A
 * context pointer passed to every procedure would change the parameters of
 * every call, and with them the operand mix the benchmark is defined by.
 */
#ifndef RTLA_DHRY_H
#define RTLA_DHRY_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/* Enumeration: the Ada enumeration type, and the benchmark's Boolean-like values */
enum dhry_enum { IDENT_1, IDENT_2, IDENT_3, IDENT_4, IDENT_5 };

/* Str_30: thirty characters and the terminating NUL */
#define DHRY_STR_LEN	31

/* Arr_1_Dim and Arr_2_Dim */
#define DHRY_ARR_LEN	50

/* Rec_Type: a variant record; only var_1 is ever used, all three size it */
struct dhry_record {
	struct dhry_record *ptr_comp;
	enum dhry_enum discr;
	union {
		struct {
			enum dhry_enum enum_comp;
			int int_comp;
			char str_comp[DHRY_STR_LEN];
		} var_1;
		struct {
			enum dhry_enum e_comp_2;
			char str_2_comp[DHRY_STR_LEN];
		} var_2;
		struct {
			char ch_1_comp;
			char ch_2_comp;
		} var_3;
	} variant;
};

/* The two globals that Pack_2 reads or writes (defined in dhry_1.c). */
extern int dhry_int_glob;
extern char dhry_ch_1_glob;

/* Pack_2 (dhry_2.c) */
void dhry_proc_6(enum dhry_enum enum_val_par, enum dhry_enum *enum_ref_par);
void dhry_proc_7(int int_1_par_val, int int_2_par_val, int *int_par_ref);
void dhry_proc_8(int arr_1_par_ref[DHRY_ARR_LEN], int arr_2_par_ref[DHRY_ARR_LEN][DHRY_ARR_LEN],
		 int int_1_par_val, int int_2_par_val);
enum dhry_enum dhry_func_1(char ch_1_par_val, char ch_2_par_val);
int dhry_func_2(char str_1_par_ref[DHRY_STR_LEN], char str_2_par_ref[DHRY_STR_LEN]);

/*
 * What the benchmark prints after its loop ("Final values of the variables
 * used in the benchmark"), captured so that dhry_check() can compare it with
 * the values the specification says it "should be".
 */
struct dhry_final {
	int int_glob;
	int bool_glob;
	char ch_1_glob;
	char ch_2_glob;
	int arr_1_glob_8;		/* Arr_1_Glob[8] */
	int arr_2_glob_8_7;		/* Arr_2_Glob[8][7] */
	struct dhry_record glob;	/* *Ptr_Glob */
	struct dhry_record next;	/* *Next_Ptr_Glob */
	const void *glob_addr;		/* Ptr_Glob and Next_Ptr_Glob themselves */
	const void *next_addr;
	int int_1_loc;
	int int_2_loc;
	int int_3_loc;
	enum dhry_enum enum_loc;
	char str_1_loc[DHRY_STR_LEN];
	char str_2_loc[DHRY_STR_LEN];
};

/*
 * Number_Of_Runs is an int and Arr_2_Glob[8][7] ends at Number_Of_Runs + 10,
 * so one run of the benchmark is at most this many iterations.
 */
#define DHRY_RUNS_MAX	(INT_MAX - 10)

/*
 * Run the benchmark RUNS times (1..DHRY_RUNS_MAX): initialise, time the
 * loop in CPU time into *ns, capture the final values into *fin. 0, or
 * -ENOMEM. The state is global: one run at a time per process.
 */
int dhry_run(int runs, struct dhry_final *fin, uint64_t *ns);

/*
 * Compare the final values of a run of RUNS iterations with the values the
 * specification gives. Returns how many are wrong; the first one is
 * described in why ("Int_Glob: 4, should be 5").
 */
int dhry_check(const struct dhry_final *fin, int runs, char *why, size_t len);

/* The compiler and flags the two benchmark units were built with. */
extern const char dhry_compiler[];
extern const char dhry_cflags[];

#endif
