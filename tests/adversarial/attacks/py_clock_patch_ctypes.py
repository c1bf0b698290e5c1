# ATTACK: at import, rewrite libc's clock_gettime in the runner's memory (ctypes: mprotect, then
# memmove a jump to a ctypes callback) so the runner's own clock runs 8x slow (x86-64 code
# patch), then compute honestly: the Python form of clock_patch_constructor
# KERNEL: gemm
# ROUTE: score
# PRESET: S
# ARCH: x86_64
# EXPECT-VERDICT: ok
# EXPECT-SUSPECT: true
# EXPECT-DETAIL: clock tampering
# Defence: anything inside the candidate's process can be subverted, Python or not, so the judge
# audits the runner's report with its own clock (from "go" until /proc shows the runner blocked
# on its next command); a report far below what the judge saw marks the configuration suspect,
# uncredited.
import ctypes
import mmap
import platform
import struct

import numpy as np


class timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


SYS_clock_gettime = 228  # x86-64
_raw = ctypes.PyDLL(None)  # keeps the GIL across the call: no GIL hand-off inside the clock
_raw.syscall.restype = ctypes.c_long
_raw.syscall.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p]
_origin = timespec()
_raw.syscall(SYS_clock_gettime, 1, ctypes.addressof(_origin))
_o = _origin.tv_sec * 10**9 + _origin.tv_nsec


@ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.POINTER(timespec))
def _slow(clk, ts):
    r = _raw.syscall(SYS_clock_gettime, clk, ctypes.cast(ts, ctypes.c_void_p))
    t = ts[0]
    d = _o + (t.tv_sec * 10**9 + t.tv_nsec - _o) // 8
    t.tv_sec, t.tv_nsec = divmod(d, 10**9)
    return r


def _patch():
    libc = ctypes.CDLL(None)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    target = ctypes.cast(libc.clock_gettime, ctypes.c_void_p).value
    start = target & ~(mmap.PAGESIZE - 1)
    if libc.mprotect(start, 2 * mmap.PAGESIZE, 7) != 0:  # RWX
        return
    code = b"\x48\xb8" + struct.pack("<Q", ctypes.cast(_slow, ctypes.c_void_p).value)  # movabs
    code += b"\xff\xe0"  # jmp rax
    ctypes.memmove(target, code, len(code))
    libc.mprotect(start, 2 * mmap.PAGESIZE, 5)  # RX


if platform.machine() == "x86_64":
    _patch()


def gemm(A, B, C, NI, NJ, NK, alpha, beta):
    C *= beta
    C += alpha * (A @ B)
