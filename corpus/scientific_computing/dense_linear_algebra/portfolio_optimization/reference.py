import numpy as np


def portfolio_optimization(cov, r, ret, risk, w, N):
    """risk = sqrt(w^T cov w), ret = w . r."""
    risk[0] = np.sqrt(np.dot(w, cov @ w))
    ret[0] = np.dot(w, r)
