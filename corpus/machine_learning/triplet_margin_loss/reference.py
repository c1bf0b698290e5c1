import numpy as np


def triplet_margin_loss(anchor, loss, negative, positive, D, N, eps, margin):
    """Mean over rows of max(0, d(a, p) - d(a, n) + margin), d the Euclidean distance of (difference + eps)."""
    dp = anchor - positive + eps
    dn = anchor - negative + eps
    d_pos = np.sqrt((dp * dp).sum(axis=1))
    d_neg = np.sqrt((dn * dn).sum(axis=1))
    loss[:] = np.maximum(d_pos - d_neg + margin, 0).mean()
