import numpy as np


def tsvc_2_s3111(a, sum, N):
    """sum[0] = total of the positive elements of a."""
    sum[0] = np.sum(a[a > 0])
