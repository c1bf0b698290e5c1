import numpy as np


def doitgen(A, C4, sum, NP, NQ, NR):
    """Every row A[r, q, :] becomes A[r, q, :] @ C4; sum holds the last row computed."""
    flat = A.reshape(NR * NQ, NP)
    flat[:] = flat @ C4
    sum[:] = A[NR - 1, NQ - 1, :]
