import numpy as np


def fuse_diamond(a, out, N):
    """out = (a*a + 1) * (a*a - 1), written as a producer, two consumers and a join."""
    t = a * a
    u = t + 1
    v = t - 1
    out[:] = u * v
