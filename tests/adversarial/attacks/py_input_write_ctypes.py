# ATTACK: write the read-only input through its raw pointer (ctypes.memmove on b.ctypes.data),
# after computing a correct a from it
# KERNEL: tsvc_2_s000
# ROUTE: score
# EXPECT-VERDICT: rejected
# EXPECT-DETAIL: const pointer
# Defence: the read-only view only stops numpy; memory is memory, as for a C kernel writing
# through a const pointer. The runner snapshots the inputs before the call and compares them
# after it: `posted const`, rejected.
import ctypes

import numpy as np


def tsvc_2_s000(a, b, N):
    a[:] = b + 1.0
    scratch = np.zeros(N, dtype=b.dtype)
    ctypes.memmove(b.ctypes.data, scratch.ctypes.data, scratch.nbytes)
