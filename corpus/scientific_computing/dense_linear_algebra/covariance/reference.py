import numpy as np


def covariance(cov, data, mean, M, N):
    """Column means, data centered in place, cov = data.T @ data / (N - 1)."""
    n = data.dtype.type(N)
    mean[:] = data.sum(axis=0) / n
    data[:] = data - mean
    cov[:] = (data.T @ data) / (n - data.dtype.type(1))
