import numpy as np


def cg(b, data, indices, indptr, x, N, NNZ, iters):
    """iters CG steps from x = 0 on A = C + C^T + D, C the CSR matrix, D its dominance diagonal.

    diag, r, p and q are local: x is the result.
    """
    rows = np.repeat(np.arange(N), np.diff(indptr))
    cols = indices
    diag = np.ones(N, dtype=x.dtype)
    np.add.at(diag, rows, np.abs(data))
    np.add.at(diag, cols, np.abs(data))
    x[:] = 0
    r = b.copy()
    p = b.copy()
    q = np.empty(N, dtype=x.dtype)
    rr = np.dot(r, r)
    for _ in range(iters):
        # q = A p = D p + C p + C^T p (scatter-adds of the stored entries)
        q[:] = diag * p
        np.add.at(q, rows, data * p[cols])
        np.add.at(q, cols, data * p[rows])
        alpha = rr / np.dot(p, q)
        x += alpha * p
        r -= alpha * q
        rr_new = np.dot(r, r)
        p[:] = r + (rr_new / rr) * p
        rr = rr_new
