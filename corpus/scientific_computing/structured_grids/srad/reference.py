import numpy as np


def srad(J, cols, lam, rows):
    """One SRAD iteration over the whole image, J updated in place.

    The derivatives dN, dS, dW, dE and the coefficient c are temporaries: only J is the result.
    """
    T = J.dtype.type
    one = T(1.0)
    size = T(rows * cols)
    flat = J.reshape(-1)
    s1 = np.cumsum(flat)[-1]          # sequential sums, as the C loop adds them
    s2 = np.cumsum(flat * flat)[-1]
    mean = s1 / size
    var = s2 / size - mean * mean
    q0sqr = var / (mean * mean)

    Jc = J.copy()
    iN = np.concatenate((np.array([0]), np.arange(0, rows - 1)))
    iS = np.concatenate((np.arange(1, rows), np.array([rows - 1])))
    jW = np.concatenate((np.array([0]), np.arange(0, cols - 1)))
    jE = np.concatenate((np.arange(1, cols), np.array([cols - 1])))
    dN = Jc[iN, :] - Jc
    dS = Jc[iS, :] - Jc
    dW = Jc[:, jW] - Jc
    dE = Jc[:, jE] - Jc
    G2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (Jc * Jc)
    L = (dN + dS + dW + dE) / Jc
    num = 0.5 * G2 - (1.0 / 16.0) * (L * L)
    den = 1.0 + 0.25 * L
    qsqr = num / (den * den)
    den = (qsqr - q0sqr) / (q0sqr * (one + q0sqr))
    c = np.clip(1.0 / (1.0 + den), 0.0, 1.0)

    D = c * dN + c[iS, :] * dS + c * dW + c[:, jE] * dE
    J[...] = Jc + (0.25 * lam) * D
