import numpy as np


def tsvc_2_s3113(a, max, N):
    """max[0] = largest absolute value in a."""
    max[0] = np.max(np.abs(a))
