import numpy as np


def matmul_sum_max_avg_pool_logsumexp_logsumexp(bias, out, weight, x, K, N, O):
    """Row sums of x @ weight.T + bias; the max, mean and two logsumexps act on one element each."""
    s = (x @ weight.T + bias).sum(axis=1).reshape(N, 1)
    # max, mean and logsumexp over a single column leave it unchanged
    out[...] = s
