import math

import numpy as np

# NumPy has no erf: interpolate math.erf on [0, 6] piecewise (24 intervals of width 1/4, Chebyshev
# degree 16 on each); beyond 6, erf is 1 to double precision.
ERF_WIDTH = 0.25
ERF_SEGMENTS = 24
ERF_DEGREE = 16


def _erf_table():
    j = np.arange(ERF_DEGREE + 1)
    t = np.cos(np.pi * (j + 0.5) / (ERF_DEGREE + 1))
    table = np.empty((ERF_SEGMENTS, ERF_DEGREE + 1))
    for s in range(ERF_SEGMENTS):
        mid = (s + 0.5) * ERF_WIDTH
        values = np.array([math.erf(mid + 0.5 * ERF_WIDTH * v) for v in t])
        table[s] = np.polynomial.chebyshev.chebfit(t, values, ERF_DEGREE)
    return table


ERF_TABLE = _erf_table()
ERF_MIDS = (np.arange(ERF_SEGMENTS) + 0.5) * ERF_WIDTH


def _erf(z):
    """erf(z) elementwise, in z's precision."""
    dt = z.dtype
    a = np.minimum(np.abs(z), dt.type(ERF_SEGMENTS * ERF_WIDTH))
    seg = np.minimum((a * dt.type(1 / ERF_WIDTH)).astype(np.intp), ERF_SEGMENTS - 1)
    t = (a - ERF_MIDS.astype(dt)[seg]) * dt.type(2 / ERF_WIDTH)
    coef = ERF_TABLE.astype(dt)
    b1 = np.zeros_like(t)
    b2 = np.zeros_like(t)
    for k in range(ERF_DEGREE, 0, -1):  # Clenshaw recurrence
        b1, b2 = coef[seg, k] + 2 * t * b1 - b2, b1
    r = coef[seg, 0] + t * b1 - b2
    r = np.where(a >= ERF_SEGMENTS * ERF_WIDTH, dt.type(1), r)
    return np.copysign(r, z)


def gelu(out, x, D, N):
    """Exact GELU, 0.5 x (1 + erf(x / sqrt(2))), over blocks of rows (to bound temporaries)."""
    rows = max(1, (1 << 18) // max(D, 1))
    for i in range(0, N, rows):
        xb = x[i:i + rows]
        out[i:i + rows] = 0.5 * xb * (1 + _erf(xb * (1 / math.sqrt(2.0))))
