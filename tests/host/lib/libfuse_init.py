# SPDX-License-Identifier: GPL-2.0-only
#
# libfuse_init.py MOUNTPOINT: let libfuse3 (not rtla) mount a FUSE file system
# on MOUNTPOINT, take the kernel's INIT request with its debug log on, answer
# it and unmount. Its stderr carries libfuse's own reading of the request
# ("INIT: 7.45", "flags=0x73fffffb"): the independent fact the features test
# compares rtla's FUSE rows with. Run it in a private mount namespace.
import ctypes, os, sys
lib = ctypes.CDLL("libfuse3.so.3", use_errno=True)
class Args(ctypes.Structure):
    _fields_ = [("argc", ctypes.c_int), ("argv", ctypes.POINTER(ctypes.c_char_p)), ("allocated", ctypes.c_int)]
argv = (ctypes.c_char_p * 3)(b"probe", b"-d", None)
args = Args(2, argv, 0)
ops = ctypes.create_string_buffer(8 * 64)
lib.fuse_session_new.restype = ctypes.c_void_p
lib.fuse_session_new.argtypes = [ctypes.POINTER(Args), ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
se = lib.fuse_session_new(ctypes.byref(args), ops, 8 * 42, None)
assert se, "fuse_session_new"
lib.fuse_session_mount.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
assert lib.fuse_session_mount(se, sys.argv[1].encode()) == 0, "mount"
class Buf(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("flags", ctypes.c_int), ("mem", ctypes.c_void_p), ("fd", ctypes.c_int), ("pos", ctypes.c_long)]
buf = Buf()
lib.fuse_session_receive_buf.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
lib.fuse_session_process_buf.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
n = lib.fuse_session_receive_buf(se, ctypes.byref(buf))
assert n > 0, n
lib.fuse_session_process_buf(se, ctypes.byref(buf))
lib.fuse_session_unmount.argtypes = [ctypes.c_void_p]
lib.fuse_session_unmount(se)
