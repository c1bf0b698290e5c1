import numpy as np


def twin_reduction_shared_stencil(div_mass, div_theta, gfac, idx, mass_fl, theta_fl, N):
    """Per cell, the gfac-weighted sums of mass_fl and of theta_fl over the cell's three edges."""
    i0, i1, i2 = idx[:, 0], idx[:, 1], idx[:, 2]
    g0, g1, g2 = gfac[:, 0], gfac[:, 1], gfac[:, 2]
    div_mass[:] = mass_fl[i0] * g0 + mass_fl[i1] * g1 + mass_fl[i2] * g2
    div_theta[:] = theta_fl[i0] * g0 + theta_fl[i1] * g1 + theta_fl[i2] * g2
