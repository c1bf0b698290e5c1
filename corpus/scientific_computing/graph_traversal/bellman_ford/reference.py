import numpy as np


def bellman_ford(data, dist, indices, indptr, N, E):
    """Shortest path lengths from vertex 0 by rounds of relaxing every edge; -1 where unreachable."""
    src = np.repeat(np.arange(N), np.diff(indptr))
    d = np.full(N, np.inf, dtype=dist.dtype)
    d[0] = 0
    for _ in range(N - 1):
        new = d.copy()
        np.minimum.at(new, indices, d[src] + data)
        if np.array_equal(new, d):
            break
        d = new
    dist[:] = np.where(np.isinf(d), dist.dtype.type(-1), d)
