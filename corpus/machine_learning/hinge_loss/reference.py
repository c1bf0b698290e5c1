import numpy as np


def hinge_loss(loss, predictions, targets, N):
    """Mean of max(0, 1 - p * t) with t = +1 where targets is true, -1 where it is false."""
    margins = np.where(targets, predictions, -predictions)
    loss[:] = np.maximum(1 - margins, 0).mean()
