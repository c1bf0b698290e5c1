import numpy as np


def poisson_cg_3d(V, rho, N, inv_h2, niter):
    """niter CG steps for -lap(V) = 4 pi rho (periodic, zero-mean source), then V's mean removed."""

    def apply_a(x):
        # inv_h2 * (6 x - x[i-1] - x[i+1] - x[j-1] - x[j+1] - x[k-1] - x[k+1]), indices mod N
        return inv_h2 * (6.0 * x - np.roll(x, 1, 0) - np.roll(x, -1, 0) - np.roll(x, 1, 1)
                         - np.roll(x, -1, 1) - np.roll(x, 1, 2) - np.roll(x, -1, 2))

    b = (4.0 * np.pi) * rho
    b = b - np.mean(b)
    V[...] = 0
    r = b.copy()
    p = b.copy()
    rr = np.sum(r * r)
    for _ in range(niter):
        q = apply_a(p)
        alpha = rr / (np.sum(p * q) + 1e-30)
        V += alpha * p
        r -= alpha * q
        rr_new = np.sum(r * r)
        p = r + (rr_new / rr) * p
        rr = rr_new
    V -= np.mean(V)
