import numpy as np

P1 = 7.0 / 12.0
P2 = -1.0 / 12.0
C1 = -2.0 / 14.0
C2 = 11.0 / 14.0
C3 = 5.0 / 14.0


def fv3_xppm(courant, dxa, q, xflux, ni, nj, nk):
    """FV3 x-PPM flux (iord 5, grid_type 0) on the ni+1 interior x-interfaces."""
    i_start = 3
    i_end = 3 + ni - 1
    al = np.zeros((ni + 6, nj, nk), dtype=q.dtype)
    for i in range(i_start - 1, i_end + 3):
        a = P1 * (q[i - 1] + q[i]) + P2 * (q[i - 2] + q[i + 1])
        if i == i_start - 1 or i == i_end:
            a = C1 * q[i - 2] + C2 * q[i - 1] + C3 * q[i]
        if i == i_start or i == i_end + 1:
            left = ((2.0 * dxa[i - 1] + dxa[i - 2]) * q[i - 1] - dxa[i - 1] * q[i - 2]) / (dxa[i - 2] + dxa[i - 1])
            right = ((2.0 * dxa[i] + dxa[i + 1]) * q[i] - dxa[i] * q[i + 1]) / (dxa[i] + dxa[i + 1])
            a = 0.5 * (left + right)
        if i == i_start + 1 or i == i_end + 2:
            a = C3 * q[i - 1] + C2 * q[i] + C1 * q[i + 1]
        al[i] = a
    for i in range(i_start, i_end + 2):
        c = courant[i - i_start]
        bl = al[i] - q[i]
        br = al[i + 1] - q[i]
        b0 = bl + br
        bl_m1 = al[i - 1] - q[i - 1]
        br_m1 = al[i] - q[i - 1]
        b0_m1 = bl_m1 + br_m1
        mask = np.where((bl_m1 * br_m1 < 0.0) | (bl * br < 0.0), 1.0, 0.0)
        fx1_pos = (1.0 - c) * (br_m1 - c * b0_m1)
        fx1_neg = (1.0 + c) * (bl + c * b0)
        xflux[i - i_start] = np.where(c > 0.0, q[i - 1] + fx1_pos * mask, q[i] + fx1_neg * mask)
