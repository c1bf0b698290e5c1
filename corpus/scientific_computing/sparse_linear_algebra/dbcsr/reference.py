import numpy as np


def dbcsr(C, a_blocks, a_row, b_blocks, b_col,
          block_size, n_block_cols, n_block_inner, n_block_rows):
    """Block-sparse C = A @ B over block lists; block p of A (q of B) has inner index p (q) mod n_block_inner."""
    bs = block_size
    a_inner = np.arange(a_row.shape[0]) % n_block_inner
    b_inner = np.arange(b_col.shape[0]) % n_block_inner
    acc = np.zeros((n_block_rows, n_block_cols, bs, bs), dtype=C.dtype)
    for k in range(n_block_inner):
        pa = np.nonzero(a_inner == k)[0]
        pb = np.nonzero(b_inner == k)[0]
        if pa.size == 0 or pb.size == 0:
            continue
        prod = np.matmul(a_blocks[pa][:, None, :, :], b_blocks[pb][None, :, :, :])
        rows = np.repeat(a_row[pa].astype(np.int64), pb.size)
        cols = np.tile(b_col[pb].astype(np.int64), pa.size)
        np.add.at(acc, (rows, cols), prod.reshape(pa.size * pb.size, bs, bs))
    C[:] = acc.transpose(0, 2, 1, 3).reshape(n_block_rows * bs, n_block_cols * bs)
