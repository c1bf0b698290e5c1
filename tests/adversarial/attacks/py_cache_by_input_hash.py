# ATTACK: gemm result cache keyed by a hash of a sample of the input bytes (the exact answer on a
# hit, without the matrix product)
# KERNEL: gemm
# ROUTE: score
# EXPECT-VERDICT: ok
# EXPECT-MAX-SPEEDUP: 3
# Defence: no two calls ever see the same input values (fresh draw per call, same sequence for
# candidate and baseline), so the cache never hits and earns nothing: the speedup is an honest
# np.matmul's plus the cost of hashing. On a judge that reused one draw, every timed call after
# the first would be a hit (a copy instead of a product, some 50x the naive C reference here). A
# stale answer returned on a false hit would be incorrect. An honest np.matmul earned 0.22-0.36
# against C on the 2-core dev VM (NumPy on Debian's reference BLAS, one thread).
import hashlib

import numpy as np

SLOTS = {}


def key(A, B, C):
    h = hashlib.sha256()
    for x in (A, B, C):
        flat = x.reshape(-1)
        h.update(flat[:: 1 + flat.size // 16].tobytes())
    return h.digest()


def gemm(A, B, C, NI, NJ, NK, alpha, beta):
    k = key(A, B, C)
    hit = SLOTS.get(k)
    if hit is not None:
        C[...] = hit
        return
    C *= beta
    C += alpha * (A @ B)
    if len(SLOTS) > 64:
        SLOTS.clear()
    SLOTS[k] = C.copy()
