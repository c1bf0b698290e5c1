import numpy as np


def cg(b, data, diag, indices, indptr, p, q, r, x, N, NNZ, iters):
    """iters CG steps from x = 0 on A = C + C^T + D, C the CSR matrix, D its dominance diagonal."""
    dt = b.dtype
    rows = np.repeat(np.arange(N), np.diff(indptr))
    cols = indices
    absval = np.abs(data).astype(np.float64)
    diag[:] = (1.0 + np.bincount(rows, weights=absval, minlength=N)
               + np.bincount(cols, weights=absval, minlength=N)).astype(dt)

    def apply_a(v):
        cv = np.bincount(rows, weights=data * v[cols], minlength=N)
        ctv = np.bincount(cols, weights=data * v[rows], minlength=N)
        return (diag * v + cv.astype(dt) + ctv.astype(dt)).astype(dt)

    x[:] = 0
    r[:] = b
    p[:] = b
    rr = np.dot(r, r)
    for _ in range(iters):
        q[:] = apply_a(p)
        alpha = rr / np.dot(p, q)
        x += alpha * p
        r -= alpha * q
        rr_new = np.dot(r, r)
        p[:] = r + (rr_new / rr) * p
        rr = rr_new
