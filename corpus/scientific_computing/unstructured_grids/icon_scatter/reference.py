import numpy as np


def icon_scatter(coeff, field, out, tgt, nblks, nlev, nnbr, nproma):
    """out[target of (n, jb, jc), jk] += coeff[jb, n, jc] * field[jb, jk, jc], out from zero."""
    ncell = nblks * nproma
    # tgt is a permutation: its inverse lists, for each target, the nnbr slots that feed it
    source = np.empty_like(tgt)
    source[tgt] = np.arange(tgt.size, dtype=tgt.dtype)
    acc = np.zeros((nblks, nproma, nlev), dtype=out.dtype)
    for q in range(nnbr):
        slot = source[q * ncell:(q + 1) * ncell].reshape(nblks, nproma)
        n, cell = np.divmod(slot, ncell)
        jb, jc = np.divmod(cell, nproma)
        acc += coeff[jb, n, jc][:, :, None] * field[jb, :, jc]
    out[:] = acc.transpose(0, 2, 1)
