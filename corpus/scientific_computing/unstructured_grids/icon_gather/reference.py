import numpy as np


def icon_gather(blk, coeff, field, idx, out, nblks, nlev, nnbr, nproma):
    """out[jb, jk, jc] = sum_n coeff[jb, n, jc] * field[blk[n, jb, jc], jk, idx[n, jb, jc]]."""
    levels = np.arange(nlev)[None, :, None]
    acc = np.zeros_like(out)
    for n in range(nnbr):
        neighbour = field[blk[n][:, None, :], levels, idx[n][:, None, :]]
        acc += coeff[:, n, None, :] * neighbour
    out[:] = acc
