import numpy as np


def tsvc_2_s125(aa, bb, cc, flat_2d_array, N):
    """flat_2d_array = aa + bb*cc, flattened row-major."""
    flat_2d_array[:] = (aa + bb * cc).ravel()
