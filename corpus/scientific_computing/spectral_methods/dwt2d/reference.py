import numpy as np


def _haar_pairs(v, half):
    """Haar step along the last axis of the view v: pairs (a, b) -> ((a+b)/2, (a-b)/2) in place."""
    h = v.shape[-1] // 2
    a = v[..., 0:2 * h:2].copy()
    b = v[..., 1:2 * h:2].copy()
    v[..., 0:2 * h:2] = (a + b) * half
    v[..., 1:2 * h:2] = (a - b) * half


def dwt2d(img, N, nlevels):
    """nlevels levels of the in-place (interleaved) 2-D Haar transform of img."""
    half = img.dtype.type(0.5)
    for l in range(nlevels):
        s = 2 ** l
        v = img[::s, ::s]
        _haar_pairs(v, half)      # rows
        _haar_pairs(v.T, half)    # columns
