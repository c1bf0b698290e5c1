import numpy as np


def adi(u, N, TSTEPS):
    """ADI time steps: column sweep u -> v, then row sweep v -> u, Thomas solves along j.

    The sweeps run over j sequentially and over i (the independent systems) as vectors;
    pt, qt hold p and q transposed (pt[j, i] = p[i, j]) so that each j is one contiguous row.
    v, p and q are PolyBench's temporaries: local here, only u is the result.
    """
    T = u.dtype.type
    one, two = T(1.0), T(2.0)
    DX = one / T(N)
    DY = one / T(N)
    DT = one / T(TSTEPS)
    B1, B2 = two, one
    mul1 = B1 * DT / (DX * DX)
    mul2 = B2 * DT / (DY * DY)
    a = -mul1 / two
    b = one + mul1
    c = a
    d = -mul2 / two
    e = one + mul2
    f = d
    e1 = one + two * d
    e2 = one + two * a
    pt = np.zeros((N, N), dtype=u.dtype)
    qt = np.zeros((N, N), dtype=u.dtype)
    v = np.zeros((N, N), dtype=u.dtype)
    for _ in range(TSTEPS):
        # column sweep: one system per column i of u, unknowns v[:, i]
        v[0, 1:-1] = one
        pt[0, 1:-1] = 0
        qt[0, 1:-1] = one
        for j in range(1, N - 1):
            den = a * pt[j - 1, 1:-1] + b
            pt[j, 1:-1] = -c / den
            qt[j, 1:-1] = (-d * u[j, :-2] + e1 * u[j, 1:-1] - f * u[j, 2:] - a * qt[j - 1, 1:-1]) / den
        v[N - 1, 1:-1] = one
        for j in range(N - 2, 0, -1):
            v[j, 1:-1] = pt[j, 1:-1] * v[j + 1, 1:-1] + qt[j, 1:-1]
        # row sweep: one system per row i of v, unknowns u[i, :]; vt[j, i] = v[i, j], ut likewise
        vt = np.ascontiguousarray(v.T)
        ut = np.ascontiguousarray(u.T)
        ut[0, 1:-1] = one
        pt[0, 1:-1] = 0
        qt[0, 1:-1] = one
        for j in range(1, N - 1):
            den = d * pt[j - 1, 1:-1] + e
            pt[j, 1:-1] = -f / den
            qt[j, 1:-1] = (-a * vt[j, :-2] + e2 * vt[j, 1:-1] - c * vt[j, 2:] - d * qt[j - 1, 1:-1]) / den
        ut[N - 1, 1:-1] = one
        for j in range(N - 2, 0, -1):
            ut[j, 1:-1] = pt[j, 1:-1] * ut[j + 1, 1:-1] + qt[j, 1:-1]
        u[1:-1, :] = ut[:, 1:-1].T
