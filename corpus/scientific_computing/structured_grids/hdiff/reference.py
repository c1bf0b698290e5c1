import numpy as np


def hdiff(coeff, in_field, out_field, I, J, K):
    """Flux-limited fourth-order horizontal diffusion; in_field has a halo of 2 in I and J."""
    f = in_field
    # Laplacian on the (I+2) x (J+2) points with a halo of 1, lap[a, b] centred on f[a+1, b+1]
    lap = 4.0 * f[1:I + 3, 1:J + 3] - (f[2:I + 4, 1:J + 3] + f[0:I + 2, 1:J + 3]
                                       + f[1:I + 3, 2:J + 4] + f[1:I + 3, 0:J + 2])
    # fluxes through the faces along I (I+1 faces per column) and along J (J+1 faces per row)
    gx = lap[1:I + 2, 1:J + 1] - lap[0:I + 1, 1:J + 1]
    fx = np.where(gx * (f[2:I + 3, 2:J + 2] - f[1:I + 2, 2:J + 2]) > 0, 0.0, gx).astype(f.dtype)
    gy = lap[1:I + 1, 1:J + 2] - lap[1:I + 1, 0:J + 1]
    fy = np.where(gy * (f[2:I + 2, 2:J + 3] - f[2:I + 2, 1:J + 2]) > 0, 0.0, gy).astype(f.dtype)
    out_field[...] = f[2:I + 2, 2:J + 2] - coeff * (fx[1:] - fx[:-1] + fy[:, 1:] - fy[:, :-1])
