import numpy as np


def bfs(data, indices, indptr, level, N, E):
    """BFS levels from vertex 0 over the edges u -> indices[p] with data[p] > 0 (-1: unreached)."""
    src = np.repeat(np.arange(N), np.diff(indptr))
    live = data > 0
    level[:] = -1
    level[0] = 0
    frontier = np.zeros(N, dtype=bool)
    frontier[0] = True
    depth = 0
    while frontier.any():
        depth += 1
        heads = indices[live & frontier[src]]
        heads = heads[level[heads] < 0]
        frontier[:] = False
        frontier[heads] = True
        level[heads] = depth
