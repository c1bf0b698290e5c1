import numpy as np


def two_stream_reftrans(g1, g2, od, ref, trans, NG):
    """Layer reflectance and transmittance, with the thin-layer branch and the final clamps."""
    thick = od > 0.001
    k = np.sqrt(np.maximum((g1 - g2) * (g1 + g2), 1e-12))
    e = np.exp(-k * od)
    e2 = e * e
    rf = 1 / (k + g1 + (k - g1) * e2)
    r = np.where(thick, g2 * (1 - e2) * rf, g2 * od)
    t = np.where(thick, 2 * k * e * rf, 1 - g1 * od)
    r = np.maximum(0, np.minimum(r, 1))
    ref[:] = r
    trans[:] = np.maximum(0, np.minimum(t, 1 - r))
