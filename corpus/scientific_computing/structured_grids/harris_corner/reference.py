import numpy as np


def harris_corner(R, img, H, W, k):
    """Sobel gradients, 3x3 box-summed structure tensor, Harris response; a zero 2-pixel border."""

    def at(a, di, dj):
        # the values of a shifted by (di, dj), over a's interior one away from its border
        return a[1 + di:a.shape[0] - 1 + di, 1 + dj:a.shape[1] - 1 + dj]

    ix = ((at(img, -1, 1) - at(img, -1, -1)) + 2.0 * (at(img, 0, 1) - at(img, 0, -1))
          + (at(img, 1, 1) - at(img, 1, -1))) * 0.125
    iy = ((at(img, 1, -1) - at(img, -1, -1)) + 2.0 * (at(img, 1, 0) - at(img, -1, 0))
          + (at(img, 1, 1) - at(img, -1, 1))) * 0.125

    def box(a):
        s = at(a, -1, -1)
        for di, dj in ((-1, 0), (-1, 1), (0, -1), (0, 0), (0, 1), (1, -1), (1, 0), (1, 1)):
            s = s + at(a, di, dj)
        return s

    sxx = box(ix * ix)
    syy = box(iy * iy)
    sxy = box(ix * iy)
    R[...] = 0
    tr = sxx + syy
    R[2:H - 2, 2:W - 2] = (sxx * syy - sxy * sxy) - k * (tr * tr)
