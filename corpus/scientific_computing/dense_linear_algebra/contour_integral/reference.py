import numpy as np


def contour_integral(Ham_im, Ham_re, P0_im, P0_re, P1_im, P1_re, Y_im, Y_re, int_pts_im, int_pts_re,
                     NM, NR, num_int_pts, slab_per_bc, contour_radius):
    """P0 = sum_z +-T(z)^-1 Y, P1 = sum_z +-z T(z)^-1 Y, the sign negative inside the contour."""
    ham = Ham_re.astype(np.float64) + 1j * Ham_im.astype(np.float64)
    y = Y_re.astype(np.float64) + 1j * Y_im.astype(np.float64)
    pts = int_pts_re.astype(np.float64) + 1j * int_pts_im.astype(np.float64)
    p0 = np.zeros((NR, NM), dtype=np.complex128)
    p1 = np.zeros((NR, NM), dtype=np.complex128)
    for z in pts:
        t = np.zeros((NR, NR), dtype=np.complex128)
        for n in range(slab_per_bc + 1):
            t += np.power(z, slab_per_bc / 2 - n) * ham[n]
        x = np.linalg.solve(t, y)
        if abs(z) < float(contour_radius):
            x = -x
        p0 += x
        p1 += z * x
    P0_re[...] = p0.real
    P0_im[...] = p0.imag
    P1_re[...] = p1.real
    P1_im[...] = p1.imag
