import numpy as np


def loop_to_map_threshold_gather(idx, out, w, x, y, N):
    """out[i, k] = 2*x[i, k] where w[idx[i], k] > 0.5, else y[i, k] + 1."""
    out[:, :] = np.where(w[idx] > 0.5, x * 2, y + 1)
