import numpy as np


def _step(src, dst, power, cx, cy, cz, cpow, amb):
    t = src
    n = np.concatenate((t[:1, :], t[:-1, :]), axis=0)   # north neighbour, clamped
    s = np.concatenate((t[1:, :], t[-1:, :]), axis=0)   # south
    w = np.concatenate((t[:, :1], t[:, :-1]), axis=1)   # west
    e = np.concatenate((t[:, 1:], t[:, -1:]), axis=1)   # east
    dst[...] = t + cpow * power + cy * (n + s - 2.0 * t) + cx * (w + e - 2.0 * t) + cz * (amb - t)


def hotspot(buf, power, temp, N, amb, cpow, cx, cy, cz, niter):
    """niter HotSpot steps alternating temp -> buf -> temp ..."""
    for it in range(niter):
        if it % 2 == 0:
            _step(temp, buf, power, cx, cy, cz, cpow, amb)
        else:
            _step(buf, temp, power, cx, cy, cz, cpow, amb)
