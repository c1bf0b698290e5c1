import numpy as np


def tsvc_2_vtv(a, b, N):
    """a *= b."""
    a *= b
