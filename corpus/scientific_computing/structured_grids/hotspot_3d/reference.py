import numpy as np


def hotspot_3d(buf, power, temp, N, amb, camb, cpow, cx, cy, cz, niter):
    """niter 3-D HotSpot steps alternating temp -> buf -> temp ...; edge neighbours clamped to the cell."""
    for it in range(niter):
        if it % 2 == 0:
            t, dst = temp, buf
        else:
            t, dst = buf, temp
        xw = np.concatenate((t[:, :, :1], t[:, :, :-1]), axis=2)
        xe = np.concatenate((t[:, :, 1:], t[:, :, -1:]), axis=2)
        yn = np.concatenate((t[:, :1, :], t[:, :-1, :]), axis=1)
        ys = np.concatenate((t[:, 1:, :], t[:, -1:, :]), axis=1)
        zb = np.concatenate((t[:1, :, :], t[:-1, :, :]), axis=0)
        za = np.concatenate((t[1:, :, :], t[-1:, :, :]), axis=0)
        dst[:, :, :] = (t + cx * (xw + xe - 2.0 * t) + cy * (yn + ys - 2.0 * t)
                        + cz * (zb + za - 2.0 * t) + cpow * power + camb * (amb - t))
