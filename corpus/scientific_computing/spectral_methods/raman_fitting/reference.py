import numpy as np
from scipy.optimize import least_squares


def _peak_table(K):
    # upstream's initialize(): the graphene G and 2D bands, then evenly spaced synthetic peaks
    peaks = [(1580.0, 9.0, 8000.0), (2670.0, 17.0, 12000.0)]
    while len(peaks) < K:
        peaks.append((1200.0 + 200.0 * len(peaks), 12.0, 6000.0))
    return peaks[:K]


def raman_fitting(noise, offset, params, K, N):
    """Least-squares fit of K Lorentzians + offset to a synthetic Raman spectrum with the drawn noise."""
    x = np.linspace(1000.0, 3000.0, N)
    peaks = _peak_table(K)
    y = np.full(N, 1500.0)
    for x0, g, a in peaks:
        y = y + a * g * g / ((x - x0) ** 2 + g * g)
    y = y + 40.0 * noise.astype(np.float64)

    def resid(p):
        acc = np.full(N, p[-1])
        for j in range(K):
            x0, g, a = p[3 * j], p[3 * j + 1], p[3 * j + 2]
            acc = acc + a * g * g / ((x - x0) ** 2 + g * g)
        return acc - y

    def jac(p):
        J = np.zeros((N, 3 * K + 1))
        for j in range(K):
            x0, g, a = p[3 * j], p[3 * j + 1], p[3 * j + 2]
            d = x - x0
            den = d * d + g * g
            J[:, 3 * j] = 2.0 * a * g * g * d / (den * den)  # d/dx0
            J[:, 3 * j + 1] = 2.0 * a * g * d * d / (den * den)  # d/dgamma
            J[:, 3 * j + 2] = g * g / den  # d/damp
        J[:, -1] = 1.0
        return J

    lo = float(np.min(y))
    guess = []
    for x0, _, _ in peaks:
        guess += [x0, 10.0, float(np.max(y)) - lo]
    guess.append(lo)
    fit = least_squares(resid, np.array(guess), jac=jac, method="lm",
                        xtol=1e-15, ftol=1e-15, gtol=1e-15, max_nfev=2000)
    p = fit.x
    # Gauss-Newton polish: MINPACK stops on its ftol test up to ~1e-9 short of the minimizer;
    # a few full steps reach the least-squares solution to rounding, whatever solver came first.
    for _ in range(4):
        p = p + np.linalg.lstsq(jac(p), -resid(p), rcond=None)[0]
    for j in range(K):
        params[j, 0] = p[3 * j]
        params[j, 1] = p[3 * j + 1]
        params[j, 2] = p[3 * j + 2]
    offset[0] = p[-1]
