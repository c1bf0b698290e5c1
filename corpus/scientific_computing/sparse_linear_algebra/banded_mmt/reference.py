import numpy as np
import scipy.sparse


def banded_mmt(A, B, ret_out, N, a_lbound, a_ubound, b_lbound, b_ubound):
    """ret_out = A B A^T, A and B given in the left-aligned packed-banded layout."""

    def unpack(packed, lower, upper):
        # row i's band starts at column max(i - lower, 0) and holds min(N, i + upper + 1) - start entries
        rows = np.arange(N)
        start = np.maximum(rows - lower, 0)
        count = np.minimum(N, rows + upper + 1) - start
        width = packed.shape[1]
        inside = np.arange(width)[None, :] < count[:, None]
        r, t = np.nonzero(inside)
        return scipy.sparse.csr_matrix((packed[r, t], (r, start[r] + t)), shape=(N, N), dtype=packed.dtype)

    a = unpack(A, a_lbound, a_ubound)
    b = unpack(B, b_lbound, b_ubound)
    ret_out[...] = (a @ b @ a.T).toarray()
