import numpy as np
import scipy.sparse


def gmres(b, data, indices, indptr, x, N, NNZ, m):
    """One cycle of m GMRES (Arnoldi + least-squares) steps from the given x on A = C + shift*I."""
    c = scipy.sparse.csr_matrix((data, indices, indptr), shape=(N, N))
    rows = np.repeat(np.arange(N), np.diff(indptr))
    rowsum = np.zeros(N, dtype=data.dtype)
    np.add.at(rowsum, rows, np.abs(data))
    shift = data.dtype.type(1.01) * np.max(rowsum)

    def matvec(v):
        return c @ v + shift * v

    r = b - matvec(x)
    beta = np.sqrt(np.dot(r, r))
    q = np.zeros((m + 1, N), dtype=b.dtype)
    h = np.zeros((m + 1, m), dtype=b.dtype)
    q[0] = r / beta
    for k in range(m):
        y = matvec(q[k])
        for j in range(k + 1):
            h[j, k] = np.dot(q[j], y)
            y -= h[j, k] * q[j]
        h[k + 1, k] = np.sqrt(np.dot(y, y))
        q[k + 1] = y / h[k + 1, k]
    rhs = np.zeros(m + 1, dtype=b.dtype)
    rhs[0] = beta
    z = np.linalg.lstsq(h, rhs, rcond=None)[0]
    x += z @ q[:m]
