import numpy as np


def mandelbrot2(c_re, c_im, count, z_re, z_im, XN, YN, maxiter, horizon):
    """Escape-time iteration z = z^2 + c from z = 0; each point stops at its first |z| > horizon.

    NPBench drops escaped points from the working set; here a mask freezes them instead,
    which gives the same outputs.
    """
    h2 = horizon * horizon
    zr = np.zeros_like(c_re)
    zi = np.zeros_like(c_im)
    alive = np.ones(c_re.shape, dtype=np.bool_)
    count[...] = 0
    z_re[...] = 0
    z_im[...] = 0
    for i in range(maxiter):
        new_r = zr * zr - zi * zi + c_re
        new_i = (zr + zr) * zi + c_im
        zr = np.where(alive, new_r, zr)
        zi = np.where(alive, new_i, zi)
        esc = alive & (zr * zr + zi * zi > h2)
        count[...] = np.where(esc, i + 1, count)
        z_re[...] = np.where(esc, zr, z_re)
        z_im[...] = np.where(esc, zi, z_im)
        alive = alive & ~esc
