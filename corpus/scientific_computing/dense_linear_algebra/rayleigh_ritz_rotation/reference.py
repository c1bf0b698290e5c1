import numpy as np


def rayleigh_ritz_rotation(W, X, Xrot, evals, k, ngrid):
    """Project H onto span(X), solve the k x k generalized problem, rotate X into Ritz vectors."""
    x = X.astype(np.float64)
    hs = x.T @ W.astype(np.float64)
    ss = x.T @ x
    hs = 0.5 * (hs + hs.T)
    ss = 0.5 * (ss + ss.T)
    lower = np.linalg.cholesky(ss)
    lower_inv = np.linalg.inv(lower)
    w, u = np.linalg.eigh(lower_inv @ hs @ lower_inv.T)
    # sign gauge: the largest-magnitude entry of every eigenvector is positive
    pivot = np.argmax(np.abs(u), axis=0)
    u = u * np.where(u[pivot, np.arange(k)] < 0, -1.0, 1.0)
    Xrot[...] = x @ (lower_inv.T @ u)
    evals[:] = w
