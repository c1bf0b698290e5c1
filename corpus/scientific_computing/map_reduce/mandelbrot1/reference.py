import numpy as np


def mandelbrot1(c_re, c_im, count, z_re, z_im, xn, yn, maxiter, horizon):
    """Escape-time iteration z = z^2 + c from z = 0, stopped per point once |z| >= horizon."""
    h2 = horizon * horizon
    zr = np.zeros_like(c_re)
    zi = np.zeros_like(c_im)
    count[:] = 0
    for n in range(maxiter):
        inside = zr * zr + zi * zi < h2
        count[:] = np.where(inside, n, count)
        new_r = zr * zr - zi * zi + c_re
        new_i = (zr + zr) * zi + c_im
        zr = np.where(inside, new_r, zr)
        zi = np.where(inside, new_i, zi)
    count[:] = np.where(count == maxiter - 1, 0, count)
    z_re[:] = zr
    z_im[:] = zi
