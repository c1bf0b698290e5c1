import numpy as np


def comet_int4_gemm(codes_left, codes_right, out, num_field, num_vector):
    """out[I, J, a, b] = sum_f c_a(left[I, f]) * c_b(right[J, f]); c1 = popcount, c0 = 2 - c1."""
    ones_l = (codes_left & 1).astype(np.int64) + ((codes_left >> 1) & 1).astype(np.int64)
    ones_r = (codes_right & 1).astype(np.int64) + ((codes_right >> 1) & 1).astype(np.int64)
    counts_l = (2 - ones_l, ones_l)
    counts_r = (2 - ones_r, ones_r)
    for a in range(2):
        for b in range(2):
            out[:, :, a, b] = (counts_l[a] @ counts_r[b].T).astype(np.int32)
