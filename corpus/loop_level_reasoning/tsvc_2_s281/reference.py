import numpy as np


def tsvc_2_s281(a, b, c, N):
    """x[i] = a[N-1-i] + b[i]*c[i] in order i = 0..N-1, a[i] = x[i] - 1, b[i] = x[i]; past the midpoint a[N-1-i] is already x[N-1-i] - 1."""
    h = (N + 1) // 2
    x = np.empty_like(b)
    x[:h] = a[::-1][:h] + b[:h] * c[:h]
    x[h:] = (x[:N - h][::-1] - 1.0) + b[h:] * c[h:]
    a[:] = x - 1.0
    b[:] = x
