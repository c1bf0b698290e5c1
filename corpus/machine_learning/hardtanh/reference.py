import numpy as np


def hardtanh(out, x, D, N):
    """HardTanh: x clamped to [-1, 1]."""
    out[:] = np.clip(x, -1, 1)
