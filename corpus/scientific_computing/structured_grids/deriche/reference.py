import numpy as np


def deriche(imgIn, imgOut, H, W, alpha):
    """Deriche filter: causal + anticausal recurrences along rows (axis 1), then along columns (axis 0).

    Each recurrence runs sequentially along its axis and as a vector across the other one.
    y1 and y2 are PolyBench's temporaries: local here, only imgOut is the result.
    """
    T = imgIn.dtype.type
    one, two = T(1.0), T(2.0)
    alpha = T(alpha)
    ea = np.exp(-alpha)
    k = (one - ea) * (one - ea) / (one + two * alpha * ea - np.exp(two * alpha))
    a1 = a5 = k
    a2 = a6 = k * ea * (alpha - one)
    a3 = a7 = k * ea * (alpha + one)
    a4 = a8 = -k * np.exp(-two * alpha)
    b1 = np.power(two, -alpha)
    b2 = -np.exp(-two * alpha)
    y1 = np.empty((W, H), dtype=imgIn.dtype)
    y2 = np.empty((W, H), dtype=imgIn.dtype)
    zero = np.zeros(W, dtype=imgIn.dtype)

    # along each row i (sequential in j)
    ym1, ym2, xm1 = zero.copy(), zero.copy(), zero.copy()
    for j in range(H):
        y1[:, j] = a1 * imgIn[:, j] + a2 * xm1 + b1 * ym1 + b2 * ym2
        xm1 = imgIn[:, j].copy()
        ym2 = ym1
        ym1 = y1[:, j].copy()
    yp1, yp2, xp1, xp2 = zero.copy(), zero.copy(), zero.copy(), zero.copy()
    for j in range(H - 1, -1, -1):
        y2[:, j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2
        xp2 = xp1
        xp1 = imgIn[:, j].copy()
        yp2 = yp1
        yp1 = y2[:, j].copy()
    imgOut[...] = y1 + y2

    # along each column j (sequential in i)
    zero = np.zeros(H, dtype=imgIn.dtype)
    tm1, ym1, ym2 = zero.copy(), zero.copy(), zero.copy()
    for i in range(W):
        y1[i, :] = a5 * imgOut[i, :] + a6 * tm1 + b1 * ym1 + b2 * ym2
        tm1 = imgOut[i, :].copy()
        ym2 = ym1
        ym1 = y1[i, :].copy()
    tp1, tp2, yp1, yp2 = zero.copy(), zero.copy(), zero.copy(), zero.copy()
    for i in range(W - 1, -1, -1):
        y2[i, :] = a7 * tp1 + a8 * tp2 + b1 * yp1 + b2 * yp2
        tp2 = tp1
        tp1 = imgOut[i, :].copy()
        yp2 = yp1
        yp1 = y2[i, :].copy()
    imgOut[...] = y1 + y2
