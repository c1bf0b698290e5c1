import numpy as np


def seissol_batched_gemm(K, Q, Astar, Q_out, NE, NB, NQ):
    """Q_out[e] += K @ Q[e] @ Astar[e] for every element e."""
    KQ = np.matmul(K, Q)  # (NE, NB, NQ): the shared matrix applied to every element
    Q_out += np.matmul(KQ, Astar)
