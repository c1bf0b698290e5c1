import numpy as np


def ext_break_capture(a, out_index, out_value, N):
    """Index and value of the first a[i] with a[i] * N < 2, or -1 and -1 when there is none."""
    hits = np.flatnonzero(a * N < 2)
    if hits.size > 0:
        out_index[0] = hits[0]
        out_value[0] = a[hits[0]]
    else:
        out_index[0] = -1
        out_value[0] = -1
