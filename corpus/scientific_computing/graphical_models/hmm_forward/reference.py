import numpy as np


def hmm_forward(A, B, alpha, loglik, obs, pi, scale, K, M, T):
    """Scaled forward recursion; rows of alpha sum to 1, loglik = sum of the log scale factors."""
    a = pi * B[:, obs[0]]
    for t in range(T):
        if t > 0:
            a = (alpha[t - 1] @ A) * B[:, obs[t]]
        scale[t] = a.sum()
        alpha[t] = a / scale[t]
    loglik[0] = np.log(scale).sum()
