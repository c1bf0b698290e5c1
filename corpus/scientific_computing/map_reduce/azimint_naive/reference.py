import numpy as np


def azimint_naive(data, radius, res, N, npt):
    """res[i] = mean of data over radius in [rmax*i/npt, rmax*(i+1)/npt); empty bins give 0."""
    t = data.dtype.type
    rmax = radius.max()
    for i in range(npt):
        r1 = rmax * t(i) / t(npt)
        r2 = rmax * t(i + 1) / t(npt)
        values = data[(r1 <= radius) & (radius < r2)]
        res[i] = values.sum() / t(values.size) if values.size > 0 else t(0)
