import numpy as np

_BLOCK = 1 << 20  # pair elements per chunk of home boxes


def lavamd(rv, qv, nei, pot, force, n_boxes, max_neighbors, particles_per_box, alpha):
    """Pair potentials and forces between each home box and itself plus its neighbour boxes."""
    t = rv.dtype.type
    a2 = t(2) * alpha * alpha
    ppb = particles_per_box
    chunk = max(1, _BLOCK // (ppb * ppb))
    for b0 in range(0, n_boxes, chunk):
        b1 = min(n_boxes, b0 + chunk)
        home = np.arange(b0, b1)
        A = rv[b0:b1]                                          # (cb, ppb, 4)
        p = np.zeros((b1 - b0, ppb), dtype=rv.dtype)
        f = np.zeros((b1 - b0, ppb, 3), dtype=rv.dtype)
        for k in range(max_neighbors + 1):
            other = home if k == 0 else nei[b0:b1, k - 1]
            Bv = rv[other]                                      # (cb, ppb, 4)
            q = qv[other][:, None, :]                           # (cb, 1, ppb)
            dot = (A[:, :, None, 1] * Bv[:, None, :, 1] + A[:, :, None, 2] * Bv[:, None, :, 2]
                   + A[:, :, None, 3] * Bv[:, None, :, 3])
            r2 = A[:, :, None, 0] + Bv[:, None, :, 0] - dot   # (cb, ppb, ppb)
            vij = np.exp(-(a2 * r2))
            fs = t(2) * vij
            p += np.sum(q * vij, axis=2)
            for d in range(3):
                dd = A[:, :, None, d + 1] - Bv[:, None, :, d + 1]
                f[:, :, d] += np.sum(q * (fs * dd), axis=2)
        pot[b0:b1] = p
        force[b0:b1] = f
