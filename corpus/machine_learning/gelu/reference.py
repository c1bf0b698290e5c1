import math

import numpy as np

# NumPy has no erf. Two Chebyshev interpolants, built once from math.erf / math.erfc:
#   |z| < 2:       erf(z) = z * P(z^2),                 P interpolating erf(z)/z over z^2 in [0, 4]
#   2 <= |z| < 6:  erfc(|z|) = exp(-z^2) * R(|z|),     R interpolating erfc(z) exp(z^2) over [2, 6]
#   |z| >= 6:      erfc(|z|) = 0 (below 2e-17)
# so 1 + erf(z) is 1 +- erf(|z|) near 0 and 2 - erfc(|z|) or erfc(|z|) in the tails (no cancellation).
HEAD_DEGREE = 16
TAIL_DEGREE = 20


def _chebyshev_fit(f, lo, hi, degree):
    j = np.arange(degree + 1)
    t = np.cos(np.pi * (j + 0.5) / (degree + 1))
    values = np.array([f(lo + (hi - lo) * (v + 1) / 2) for v in t])
    return np.polynomial.chebyshev.chebfit(t, values, degree)


HEAD = _chebyshev_fit(lambda u: math.erf(math.sqrt(u)) / math.sqrt(u), 0.0, 4.0, HEAD_DEGREE)
TAIL = _chebyshev_fit(lambda z: math.erfc(z) * math.exp(z * z), 2.0, 6.0, TAIL_DEGREE)


def _clenshaw(coef, t):
    """sum_k coef[k] T_k(t) for t in [-1, 1]; coef holds Python floats, so t's precision is kept."""
    t2 = 2 * t
    b1 = np.zeros_like(t)
    b2 = np.zeros_like(t)
    for c in coef[:0:-1]:
        b0 = t2 * b1
        b0 -= b2
        b0 += c
        b1, b2 = b0, b1
    return coef[0] + t * b1 - b2


def _one_plus_erf(z):
    """1 + erf(z) elementwise, in z's precision."""
    a = np.abs(z)
    u = a * a
    head = a * _clenshaw([float(c) for c in HEAD], np.minimum(u, 4) * 0.5 - 1)
    tail = np.exp(-u) * _clenshaw([float(c) for c in TAIL], np.clip(a, 2, 6) * 0.5 - 2)
    tail = np.where(a >= 6, 0, tail)                       # erfc(|z|)
    pos = np.where(a < 2, 1 + head, 2 - tail)              # 1 + erf(|z|)
    neg = np.where(a < 2, 1 - head, tail)                  # 1 - erf(|z|)
    return np.where(z >= 0, pos, neg)


def gelu(out, x, D, N):
    """Exact GELU, 0.5 x (1 + erf(x / sqrt(2))), over blocks of rows (to bound temporaries)."""
    rows = max(1, (1 << 18) // max(D, 1))
    for i in range(0, N, rows):
        xb = x[i:i + rows]
        out[i:i + rows] = 0.5 * xb * _one_plus_erf(xb * (1 / math.sqrt(2.0)))
