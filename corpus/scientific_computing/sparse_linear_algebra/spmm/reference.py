import numpy as np


def spmm(A_data, A_indices, A_indptr, B_data, B_indices, B_indptr, C, NI, NJ, NK, nnz_A, nnz_B):
    """Dense C = A @ B for CSR A (NI x NK) and CSR B (NK x NJ), in blocks of rows of A."""
    dt = C.dtype
    b_len = np.diff(B_indptr).astype(np.int64)
    a_rows = np.repeat(np.arange(NI, dtype=np.int64), np.diff(A_indptr))
    # partial products per row of A, to cut the rows into blocks of about 4M products
    work = np.cumsum(np.bincount(a_rows, weights=b_len[A_indices], minlength=NI))
    i0 = 0
    while i0 < NI:
        done = work[i0 - 1] if i0 > 0 else 0.0
        i1 = max(i0 + 1, int(np.searchsorted(work, done + (1 << 22), side="right")))
        i1 = min(i1, NI)
        p0 = A_indptr[i0]
        p1 = A_indptr[i1]
        k = A_indices[p0:p1]
        counts = b_len[k]
        total = int(counts.sum())
        block = np.zeros((i1 - i0) * NJ, dtype=np.float64)
        if total > 0:
            start = np.repeat(np.cumsum(counts) - counts, counts)
            q = np.repeat(B_indptr[k].astype(np.int64), counts) + (np.arange(total) - start)
            a = np.repeat(A_data[p0:p1], counts)
            row = np.repeat(a_rows[p0:p1] - i0, counts)
            block = np.bincount(row * NJ + B_indices[q], weights=a * B_data[q],
                                minlength=(i1 - i0) * NJ)
        C[i0:i1, :] = block.reshape(i1 - i0, NJ).astype(dt)
        i0 = i1
