import numpy as np


def seissol_tensor_contraction(I, Q, kDivM, star, batch, NB, NQ):
    """Q[b,k,p] += sum_{d,l,q} kDivM[d,k,l] * I[b,l,q] * star[d,q,p] (einsum 'dkl,blq,dqp->bkp')."""
    acc = np.zeros_like(Q)
    for d in range(3):
        acc += np.matmul(kDivM[d], np.matmul(I, star[d]))
    Q += acc
