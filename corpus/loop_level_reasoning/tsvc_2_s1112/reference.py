import numpy as np


def tsvc_2_s1112(a, b, N):
    """a = b + 1 (the loop runs from the last element down; the order does not matter)."""
    a[:] = b + 1
