import numpy as np


def loop_to_map_overlap_seq(a, b, N):
    """a[5i] = b[i] + 1, a[3i] = 2*b[i] for i < N//5; where they collide (15m), the 3i write is the later one."""
    n = N // 5
    a[0:5 * n:5] = b[:n] + 1
    a[0:3 * n:3] = b[:n] * 2
