import numpy as np


def heat_3d(A, B, N, TSTEPS):
    """TSTEPS explicit heat-equation steps A -> B -> A over the interior, in place; boundaries stay as given."""

    def step(src, dst):
        c = src[1:-1, 1:-1, 1:-1]
        dst[1:-1, 1:-1, 1:-1] = (
            0.125 * (src[2:, 1:-1, 1:-1] - 2.0 * c + src[:-2, 1:-1, 1:-1])
            + 0.125 * (src[1:-1, 2:, 1:-1] - 2.0 * c + src[1:-1, :-2, 1:-1])
            + 0.125 * (src[1:-1, 1:-1, 2:] - 2.0 * c + src[1:-1, 1:-1, :-2])
            + c
        )

    for _ in range(TSTEPS):
        step(A, B)
        step(B, A)
