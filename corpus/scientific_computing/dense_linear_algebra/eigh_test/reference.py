import numpy as np
import scipy.linalg


def eigh_test(a_im, a_re, b_im, b_re, wout, N):
    """Eigenvalues of A v = w B v, A and B Hermitian from their upper triangles, B positive definite."""
    a = a_re.astype(np.float64) + 1j * a_im.astype(np.float64)
    b = b_re.astype(np.float64) + 1j * b_im.astype(np.float64)
    wout[:] = scipy.linalg.eigh(a, b, lower=False, eigvals_only=True)
