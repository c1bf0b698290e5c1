import numpy as np


def s121_sym_k(a, b, K, N):
    """a[i] = a[i+K] + b[i] for i < N-K, every a[i+K] being the value before the loop."""
    old = a[K:].copy()  # the reads see a as it was before the loop
    a[:N - K] = old + b[:N - K]
