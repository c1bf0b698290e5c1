import numpy as np


def tsvc_2_s423(a, flat, N, vl):
    """flat[i+1] = flat[i+vl] + a[i] for i < N-1; every read of flat sees its value from before the loop."""
    flat[1:N] = flat[vl:N - 1 + vl] + a[:N - 1]
