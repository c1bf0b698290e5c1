import numpy as np


def pagerank(data, indices, indptr, rank, N, E, damping, iters):
    """iters weighted PageRank power-iteration steps from the uniform vector, dangling mass spread."""
    dt = rank.dtype
    src = np.repeat(np.arange(N), np.diff(indptr))
    outw = np.bincount(src, weights=data, minlength=N).astype(dt)
    dangling = outw == 0
    safe_w = np.where(dangling, dt.type(1), outw)
    rank[:] = dt.type(1) / dt.type(N)
    for _ in range(iters):
        prev = rank.copy()  # the previous iterate, local
        base = (dt.type(1) - damping) / dt.type(N) + damping * prev[dangling].sum() / dt.type(N)
        share = np.where(dangling, dt.type(0), damping * prev / safe_w)
        rank[:] = base + np.bincount(indices, weights=share[src] * data, minlength=N).astype(dt)
