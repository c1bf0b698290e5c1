import numpy as np


def seidel_2d(A, N, TSTEPS):
    """TSTEPS in-place Gauss-Seidel sweeps of the 9-point mean over the interior.

    Point (i, j) needs the new values of (i-1, j-1), (i-1, j), (i-1, j+1), (i, j-1) and the old
    values of the rest, so all interior points on one wavefront 2*i + j = w can be updated together,
    wavefronts in increasing order.
    """
    a = A.reshape(-1)
    n = N
    for _ in range(TSTEPS):
        for w in range(3, 3 * (n - 2) + 1):
            ilo = max(1, (w - (n - 2) + 1) // 2)
            ihi = min(n - 2, (w - 1) // 2)
            if ilo > ihi:
                continue
            i = np.arange(ilo, ihi + 1)
            p = i * n + (w - 2 * i)
            a[p] = (a[p - n - 1] + a[p - n] + a[p - n + 1] + a[p - 1] + a[p] + a[p + 1]
                    + a[p + n - 1] + a[p + n] + a[p + n + 1]) / 9.0
