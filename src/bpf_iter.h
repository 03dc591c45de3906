/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpf_iter - what the commands with a BPF reader share: running a loaded
 * BPF iterator program to its end, and saying why a load failed.
 *
 * The programs themselves are light skeletons, one per command
 * (src/CMD/NAME.bpf.c, generated into build/gen/NAME.skel.h by the
 * Makefile); this file needs nothing of libbpf.
 */
#ifndef RTLA_BPF_ITER_H
#define RTLA_BPF_ITER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Run the iterator of the loaded program PROG_FD once and read all it
 * writes into *BUF (grown as needed; *CAP its size): the length, or
 * -errno. The kernel ends a read() that visited a million objects without
 * output with EAGAIN, and the next read goes on from there: AGAIN_GOES_ON
 * says the program never returns 1 to ask for it itself.
 */
ssize_t bpf_iter_read(int prog_fd, char **buf, size_t *cap, bool again_goes_on);

/* Why a light skeleton's load failed with ERR (-errno), in words a user can act on. */
void bpf_iter_load_why(int err, char *why, size_t len);

/* CLOCK_MONOTONIC in milliseconds, for the readers' -D costs */
double bpf_iter_now_ms(void);

#endif
