import numpy as np


def spmv(data, indices, indptr, x, y, N, NNZ):
    """y = A @ x for the CSR matrix A = (data, indices, indptr), written into y in place."""
    for i in range(N):
        row = slice(indptr[i], indptr[i + 1])
        y[i] = np.dot(data[row], x[indices[row]])
