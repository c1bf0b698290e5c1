import numpy as np


def daubechies_dwt2d(image, out, N, nlevels):
    """nlevels of the periodic 2-D db2 transform; each level works on the top-left s x s block."""
    t = image.dtype.type
    r = np.sqrt(3.0)
    d = 4.0 * np.sqrt(2.0)
    h = [t((1.0 + r) / d), t((3.0 + r) / d), t((3.0 - r) / d), t((1.0 - r) / d)]
    g = [h[3], -h[2], h[1], -h[0]]

    def analyse(x):
        # along axis 0: pairs (2k, 2k+1) and the next pair (2k+2, 2k+3), periodic
        even, odd = x[0::2], x[1::2]
        even_next = np.roll(even, -1, axis=0)
        odd_next = np.roll(odd, -1, axis=0)
        low = h[0] * even + h[1] * odd + h[2] * even_next + h[3] * odd_next
        high = g[0] * even + g[1] * odd + g[2] * even_next + g[3] * odd_next
        return np.concatenate((low, high), axis=0)

    out[...] = image
    for level in range(nlevels):
        s = N >> level
        block = out[:s, :s]
        rows_done = analyse(block.T).T
        out[:s, :s] = analyse(rows_done)
