import numpy as np


def correlation(corr, data, mean, stddev, M, N):
    """Column means and standard deviations, data normalized in place, corr = data.T @ data (unit diagonal)."""
    n = data.dtype.type(N)
    eps = data.dtype.type(0.1)
    mean[:] = data.sum(axis=0) / n
    sd = np.sqrt(((data - mean) ** 2).sum(axis=0) / n)
    stddev[:] = np.where(sd <= eps, data.dtype.type(1), sd)
    data[:] = data - mean
    data[:] = data / (np.sqrt(n) * stddev)
    corr[:] = data.T @ data
    np.fill_diagonal(corr, 1)
