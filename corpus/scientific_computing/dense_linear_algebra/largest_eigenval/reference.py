import numpy as np


def largest_eigenval(a, wmax, N):
    """The largest-magnitude eigenvalue of the symmetric matrix given by a's lower triangle."""
    w = np.linalg.eigh(a.astype(np.float64), UPLO="L")[0]
    wmax[0] = w[np.argmax(np.abs(w))]
