import numpy as np


def subset_sum(count, values, N):
    """Number of subsets of values summing to floor(sum(values) / 2) (a counting DP over sums)."""
    target = int(np.sum(values, dtype=np.int64)) // 2
    ways = np.zeros(target + 1, dtype=np.int64)
    ways[0] = 1
    for v in values:
        v = int(v)
        if v <= target:
            ways[v:] = ways[v:] + ways[:target + 1 - v]
    count[0] = ways[target]
