import numpy as np

# the 27 stencil offsets (dz, dy, dx) in column order; index 13 is the node itself
_OFFS = [(dz, dy, dx) for dz in (-1, 0, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]


def minife(b, weights, x, max_iter, nx, ny, nz):
    """max_iter CG iterations (miniFE's cg_solve) on the 27-point SPD operator given by edge weights."""
    t = x.dtype.type
    Z, Y, X = nz + 1, ny + 1, nx + 1
    # weight of every forward edge, zero where the neighbour is outside the grid, padded by one node
    wp = np.zeros((Z + 2, Y + 2, X + 2, 13), dtype=x.dtype)
    for k in range(13):
        dz, dy, dx = _OFFS[14 + k]
        wk = np.zeros((Z, Y, X), dtype=x.dtype)
        z1 = Z - dz
        ya, yb = max(-dy, 0), Y - max(dy, 0)
        xa, xb = max(-dx, 0), X - max(dx, 0)
        wk[:z1, ya:yb, xa:xb] = weights[:z1, ya:yb, xa:xb, k]
        wp[1:Z + 1, 1:Y + 1, 1:X + 1, k] = wk
    # off-diagonal magnitudes of every row, in column order (offset d < 13: backward edge stored at the neighbour)
    coef = []
    for d in range(27):
        if d == 13:
            coef.append(None)
            continue
        dz, dy, dx = _OFFS[d]
        if d > 13:
            coef.append(wp[1:Z + 1, 1:Y + 1, 1:X + 1, d - 14])
        else:
            k = 12 - d
            coef.append(wp[1 + dz:Z + 1 + dz, 1 + dy:Y + 1 + dy, 1 + dx:X + 1 + dx, k])
    diag = np.zeros((Z, Y, X), dtype=x.dtype)
    for d in range(27):
        if d != 13:
            diag += coef[d]
    diag = diag + t(1)

    def matvec(v):
        vp = np.zeros((Z + 2, Y + 2, X + 2), dtype=x.dtype)
        vp[1:Z + 1, 1:Y + 1, 1:X + 1] = v
        y = np.zeros((Z, Y, X), dtype=x.dtype)
        for d in range(27):
            if d == 13:
                y += diag * v
            else:
                dz, dy, dx = _OFFS[d]
                y += (-coef[d]) * vp[1 + dz:Z + 1 + dz, 1 + dy:Y + 1 + dy, 1 + dx:X + 1 + dx]
        return y

    xv = x.copy()
    p = xv.copy()
    ap = matvec(p)
    r = b - ap
    rtrans = np.sum(r * r)
    for k in range(1, max_iter + 1):
        if k == 1:
            p = r.copy()
        else:
            oldrtrans = rtrans
            rtrans = np.sum(r * r)
            p = (rtrans / oldrtrans) * p + r
        ap = matvec(p)
        alpha = rtrans / np.sum(ap * p)
        xv = xv + alpha * p
        r = r + (-alpha) * ap
    x[:] = xv
