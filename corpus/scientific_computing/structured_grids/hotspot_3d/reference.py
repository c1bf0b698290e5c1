import numpy as np


def _shift(t, axis, forward):
    """Neighbour along axis (forward: index + 1, else index - 1), clamped at the grid's edge."""
    n = t.shape[axis]
    if forward:
        idx = np.concatenate((np.arange(1, n), np.array([n - 1])))
    else:
        idx = np.concatenate((np.array([0]), np.arange(0, n - 1)))
    return np.take(t, idx, axis=axis)


def _step(src, dst, power, amb, camb, cpow, cx, cy, cz):
    t = src
    dst[...] = (t + cx * (_shift(t, 2, False) + _shift(t, 2, True) - 2.0 * t)
                + cy * (_shift(t, 1, False) + _shift(t, 1, True) - 2.0 * t)
                + cz * (_shift(t, 0, False) + _shift(t, 0, True) - 2.0 * t)
                + cpow * power + camb * (amb - t))


def hotspot_3d(buf, power, temp, N, amb, camb, cpow, cx, cy, cz, niter):
    """niter 3-D HotSpot steps alternating temp -> buf -> temp ..."""
    for it in range(niter):
        if it % 2 == 0:
            _step(temp, buf, power, amb, camb, cpow, cx, cy, cz)
        else:
            _step(buf, temp, power, amb, camb, cpow, cx, cy, cz)
