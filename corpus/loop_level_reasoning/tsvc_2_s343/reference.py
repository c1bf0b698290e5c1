import numpy as np


def tsvc_2_s343(aa, bb, flat_2d_array, N):
    """Copy aa[j, i] where bb[j, i] > 0, in column-major order, to flat_2d_array[0:count]; the rest is unchanged."""
    mask = bb.T.flatten() > 0
    packed = aa.T.flatten()[mask]
    flat_2d_array[:packed.size] = packed
