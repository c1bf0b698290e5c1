import numpy as np


def jacobi_2d_tile_w7(A, B, N, TSTEPS):
    """TSTEPS steps: the interior of B from A, then the interior of A from B (5-point, weight 0.2)."""
    for _ in range(TSTEPS):
        B[1:N - 1, 1:N - 1] = 0.2 * (A[1:N - 1, 1:N - 1] + A[1:N - 1, 0:N - 2] + A[1:N - 1, 2:N]
                                     + A[0:N - 2, 1:N - 1] + A[2:N, 1:N - 1])
        A[1:N - 1, 1:N - 1] = 0.2 * (B[1:N - 1, 1:N - 1] + B[1:N - 1, 0:N - 2] + B[1:N - 1, 2:N]
                                     + B[0:N - 2, 1:N - 1] + B[2:N, 1:N - 1])
