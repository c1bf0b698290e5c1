import numpy as np


def histogram_equalization(img, out, H, W):
    """out = lut[img], lut[v] = round((cdf[v] - cdf_min) * 255 / (H*W - cdf_min)) in integers."""
    hist = np.bincount(img.ravel(), minlength=256).astype(np.int64)
    cdf = np.cumsum(hist)
    cdf_min = cdf[int(img.min())]
    den = np.int64(H * W) - cdf_min
    if den == 0:
        out[:] = img
        return
    lut = ((cdf - cdf_min) * 255 + den // 2) // den
    lut8 = np.clip(lut, 0, 255).astype(np.uint8)
    out[:] = lut8[img.ravel()].reshape(H, W)
