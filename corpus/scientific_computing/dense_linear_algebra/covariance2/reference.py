import numpy as np


def covariance2(cov, data, M, N):
    """cov = covariance of the columns of data (divisor N - 1), as np.cov(data, rowvar=False)."""
    n = data.dtype.type(N)
    centered = data - data.sum(axis=0) / n
    cov[:] = (centered.T @ centered) / (n - data.dtype.type(1))
