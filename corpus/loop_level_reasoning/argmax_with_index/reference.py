import numpy as np


def argmax_with_index(a, out_index, out_value, N):
    """The maximum of a and the index of its first occurrence."""
    i = np.argmax(a)
    out_index[0] = i
    out_value[0] = a[i]
