import numpy as np


def pathfinder(result, wall, cols, rows):
    """Row-by-row minimum path cost; each row's update is a vector min over three shifts."""
    cur = wall[0].copy()
    for t in range(1, rows):
        left = np.concatenate((cur[:1], cur[:-1]))    # j-1, clamped (the cell itself at j = 0)
        right = np.concatenate((cur[1:], cur[-1:]))   # j+1, clamped
        cur = wall[t] + np.minimum(np.minimum(left, cur), right)
    result[...] = cur
