// SPDX-License-Identifier: GPL-2.0-only
/*
 * The static rtla of "make bundle" only: libproc2 asks libsystemd for a
 * process's session, unit, slice, seat and owner, and Debian has no static
 * libsystemd.  These answer "no data", as libsystemd does for a process
 * outside any systemd session; a board without systemd gives the same.
 * No rtla command shows these fields.  Kept out of librtla.a (Makefile).
 */
#include <errno.h>
#include <sys/types.h>

int sd_pid_get_session(pid_t pid, char **session);
int sd_pid_get_unit(pid_t pid, char **unit);
int sd_pid_get_user_unit(pid_t pid, char **unit);
int sd_pid_get_slice(pid_t pid, char **slice);
int sd_pid_get_machine_name(pid_t pid, char **machine);
int sd_pid_get_owner_uid(pid_t pid, uid_t *uid);
int sd_session_get_seat(const char *session, char **seat);

int sd_pid_get_session(pid_t pid, char **session) { return -ENODATA; }
int sd_pid_get_unit(pid_t pid, char **unit) { return -ENODATA; }
int sd_pid_get_user_unit(pid_t pid, char **unit) { return -ENODATA; }
int sd_pid_get_slice(pid_t pid, char **slice) { return -ENODATA; }
int sd_pid_get_machine_name(pid_t pid, char **machine) { return -ENODATA; }
int sd_pid_get_owner_uid(pid_t pid, uid_t *uid) { return -ENODATA; }
int sd_session_get_seat(const char *session, char **seat) { return -ENODATA; }
