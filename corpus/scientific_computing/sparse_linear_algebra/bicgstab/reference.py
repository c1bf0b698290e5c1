import numpy as np
import scipy.sparse


def bicgstab(b, data, indices, indptr, x, N, NNZ, iters):
    """iters BiCGSTAB steps from the given x on A = C + shift*I (C the CSR matrix)."""
    c = scipy.sparse.csr_matrix((data, indices, indptr), shape=(N, N))
    rows = np.repeat(np.arange(N), np.diff(indptr))
    rowsum = np.zeros(N, dtype=data.dtype)
    np.add.at(rowsum, rows, np.abs(data))
    shift = data.dtype.type(1.01) * np.max(rowsum)

    def matvec(v):
        return c @ v + shift * v

    r = b - matvec(x)
    r_tilde = r.copy()
    one = data.dtype.type(1)
    rho_old, alpha, omega = one, one, one
    p = np.zeros_like(b)
    v = np.zeros_like(b)
    for _ in range(iters):
        rho = np.dot(r_tilde, r)
        beta = (rho / rho_old) * (alpha / omega)
        p = r + beta * (p - omega * v)
        v = matvec(p)
        alpha = rho / np.dot(r_tilde, v)
        s = r - alpha * v
        t = matvec(s)
        omega = np.dot(t, s) / np.dot(t, t)
        x += alpha * p + omega * s
        r = s - omega * t
        rho_old = rho
