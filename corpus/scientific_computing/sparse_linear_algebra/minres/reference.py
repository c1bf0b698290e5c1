import numpy as np
import scipy.sparse


def minres(b, data, indices, indptr, x, N, NNZ, iters):
    """iters MINRES steps from the given x on A = C + C^T + shift*I (C the CSR matrix)."""
    c = scipy.sparse.csr_matrix((data, indices, indptr), shape=(N, N))
    ct = c.T.tocsr()
    rows = np.repeat(np.arange(N), np.diff(indptr))
    absum = np.zeros(N, dtype=data.dtype)
    np.add.at(absum, rows, np.abs(data))
    np.add.at(absum, indices, np.abs(data))
    shift = data.dtype.type(1.01) * np.max(absum)

    def matvec(v):
        return (c @ v + ct @ v) + shift * v

    t = data.dtype.type
    r = b - matvec(x)
    beta = np.sqrt(np.dot(r, r))
    v = r / beta
    v_prev = np.zeros_like(b)
    coupling = t(0)  # beta_k, between v_{k-1} and v_k
    cs, sn, dbar, eps, phibar = t(-1), t(0), t(0), t(0), beta
    w = np.zeros_like(b)
    w2 = np.zeros_like(b)
    for _ in range(iters):
        av = matvec(v)
        alpha = np.dot(v, av)
        u = av - alpha * v - coupling * v_prev
        beta_next = np.sqrt(np.dot(u, u))
        # apply the previous rotations to the new column of the tridiagonal matrix, then a new one
        old_eps = eps
        delta = cs * dbar + sn * alpha
        gbar = sn * dbar - cs * alpha
        eps = sn * beta_next
        dbar = -cs * beta_next
        gamma = np.sqrt(gbar * gbar + beta_next * beta_next)
        cs = gbar / gamma
        sn = beta_next / gamma
        phi = cs * phibar
        phibar = sn * phibar
        w1, w2 = w2, w
        w = (v - old_eps * w1 - delta * w2) / gamma
        x += phi * w
        v_prev = v
        v = u / beta_next
        coupling = beta_next
