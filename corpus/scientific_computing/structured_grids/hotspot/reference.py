import numpy as np


def hotspot(buf, power, temp, N, amb, cpow, cx, cy, cz, niter):
    """niter HotSpot steps alternating temp -> buf -> temp ...; edge neighbours clamped to the cell."""
    for it in range(niter):
        if it % 2 == 0:
            t, dst = temp, buf
        else:
            t, dst = buf, temp
        n = np.concatenate((t[:1, :], t[:-1, :]), axis=0)   # north neighbour (row i-1)
        s = np.concatenate((t[1:, :], t[-1:, :]), axis=0)   # south (row i+1)
        w = np.concatenate((t[:, :1], t[:, :-1]), axis=1)   # west (column j-1)
        e = np.concatenate((t[:, 1:], t[:, -1:]), axis=1)   # east (column j+1)
        dst[:, :] = t + cpow * power + cy * (n + s - 2.0 * t) + cx * (w + e - 2.0 * t) + cz * (amb - t)
