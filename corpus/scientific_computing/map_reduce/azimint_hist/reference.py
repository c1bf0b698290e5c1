import numpy as np


def azimint_hist(data, radius, res, N, npt):
    """Mean of data per equal-width radius bin over [min(radius), max(radius)]; empty bins give 0."""
    t = radius.dtype.type
    rmin = radius.min()
    rmax = radius.max()
    b = ((radius - rmin) * t(npt) / (rmax - rmin)).astype(np.int64)
    b = np.minimum(b, npt - 1)
    counts = np.bincount(b, minlength=npt)  # NPBench's histu, local
    sums = np.bincount(b, weights=data, minlength=npt)
    res[:] = np.where(counts > 0, sums / np.maximum(counts, 1), 0.0).astype(res.dtype)
