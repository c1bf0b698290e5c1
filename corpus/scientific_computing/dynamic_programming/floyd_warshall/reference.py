import numpy as np


def floyd_warshall(path, N):
    """Relax every pair (i, j) through every intermediate vertex k in turn, in place."""
    for k in range(N):
        path[:] = np.minimum(path, path[:, k, None] + path[None, k, :])
