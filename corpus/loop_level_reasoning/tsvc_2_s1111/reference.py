import numpy as np


def tsvc_2_s1111(a, b, c, d, N):
    """For i < N/2: a[2i] = c*b + d*b + c*c + d*b + d*c at index i; odd elements of a are left unchanged."""
    h = N // 2
    bh, ch, dh = b[:h], c[:h], d[:h]
    a[0:2 * h:2] = ch * bh + dh * bh + ch * ch + dh * bh + dh * ch
