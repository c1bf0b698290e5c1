import numpy as np


def _log_normalized(x):
    """log of x / (sum of its last axis), computed in float64, rounded to x's precision."""
    x64 = x.astype(np.float64)
    return np.log(x64 / x64.sum(axis=-1, keepdims=True)).astype(x.dtype)


def viterbi(A, B, delta, logp, obs, path, pi, psi, K, M, T):
    """Log-space Viterbi: best-path scores delta, backpointers psi, the best path and its log-prob."""
    pi[:] = _log_normalized(pi)
    A[:] = _log_normalized(A)
    B[:] = _log_normalized(B)
    delta[0] = pi + B[:, obs[0]]
    psi[0] = 0
    for t in range(1, T):
        scores = delta[t - 1][:, None] + A  # scores[i, j]: reach j from i
        psi[t] = np.argmax(scores, axis=0)
        delta[t] = scores.max(axis=0) + B[:, obs[t]]
    best = int(np.argmax(delta[T - 1]))
    logp[0] = delta[T - 1, best]
    path[T - 1] = best
    for t in range(T - 2, -1, -1):
        path[t] = psi[t + 1, path[t + 1]]
