import numpy as np


def stencil_3d(c, inp, out, N, R):
    """Radius-R star stencil on the interior; the R-wide border is copied from inp."""
    out[...] = inp
    n = N - 2 * R
    if n <= 0:
        return

    def sh(dx, dy, dz):
        return inp[R + dx:R + dx + n, R + dy:R + dy + n, R + dz:R + dz + n]

    acc = c[0] * sh(0, 0, 0)
    for r in range(1, R + 1):
        acc = acc + c[r] * (sh(-r, 0, 0) + sh(r, 0, 0) + sh(0, -r, 0) + sh(0, r, 0)
                            + sh(0, 0, -r) + sh(0, 0, r))
    out[R:N - R, R:N - R, R:N - R] = acc
