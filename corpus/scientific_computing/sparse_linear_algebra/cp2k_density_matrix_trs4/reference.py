import numpy as np

# Block layout: every matrix is block-tridiagonal with periodic wrap, stored as blocks[r, s]
# (n_block_rows, 3, bs, bs) for block column (r + s - 1) mod n_block_rows.
_PAIRS = {0: ((0, 1), (1, 0)), 1: ((0, 2), (1, 1), (2, 0)), 2: ((1, 2), (2, 1))}
_GAP = 0.35  # HOMO-LUMO gap opened above the occupied levels (upstream's HOMO_LUMO_GAP)


def _mult(A, B, eps):
    # C = A B kept on the pattern (product blocks outside it dropped), blocks of norm < eps zeroed
    n = A.shape[0]
    C = np.zeros_like(A)
    for so in range(3):
        for s1, s2 in _PAIRS[so]:
            Bs = np.roll(B[:, s2], -(s1 - 1), axis=0)  # B[(r + s1 - 1) mod n, s2]
            C[:, so] += np.matmul(A[:, s1], Bs)
    small = np.sum(C * C, axis=(2, 3)) < eps * eps
    C[small] = 0.0
    return C


def cp2k_density_matrix_trs4(h_off, h_on, levels, p_blocks, s_off, s_on, block_size, n_block_rows,
                             n_iter, nelectron, eps_max, eps_min, spin_scale, threshold):
    """CP2K's TRS4 purification (non-dynamic path) of a gapped block-tridiagonal Kohn-Sham matrix."""
    n, bs = n_block_rows, block_size
    eye = np.eye(bs)
    # the Kohn-Sham matrix: sorted levels (+ the gap above the occupied ones) on the diagonal,
    # symmetrized on-site blocks, and couplings h_off[r] between block rows r and r+1
    lv = levels.astype(np.float64).reshape(n, bs) + np.where(np.arange(n * bs) >= nelectron, _GAP, 0.0).reshape(n, bs)
    ks = np.zeros((n, 3, bs, bs))
    ks[:, 1] = 0.5 * (h_on + np.transpose(h_on, (0, 2, 1)))
    ks[:, 1] += lv[:, :, None] * eye[None]
    ks[:, 2] = h_off
    ks[:, 0] = np.roll(np.transpose(h_off, (0, 2, 1)), 1, axis=0)
    sinv = np.zeros((n, 3, bs, bs))
    sinv[:, 1] = eye[None] + 0.5 * (s_on + np.transpose(s_on, (0, 2, 1)))
    sinv[:, 2] = s_off
    sinv[:, 0] = np.roll(np.transpose(s_off, (0, 2, 1)), 1, axis=0)

    X = _mult(_mult(sinv, ks, threshold), sinv, threshold)  # S^-1/2 H S^-1/2
    scale = -1.0 / (eps_max - eps_min)
    X = X * scale
    X[:, 1] -= (scale * eps_max) * eye[None]  # X0 = (eps_max I - H) / (eps_max - eps_min)
    for it in range(n_iter):
        X2 = _mult(X, X, threshold)
        G = X2 - 2.0 * X
        G[:, 1] += eye[None]
        poly = 4.0 * X - 3.0 * X2
        R = X2 - X
        frob_id_sq = float(np.sum(R * R))
        frob_x_sq = float(np.sum(X * X))
        trace_fx = float(np.sum(X2 * poly))
        delta_n = nelectron - trace_fx
        if frob_id_sq < threshold * frob_x_sq and abs(delta_n) < 0.5:
            gamma = 3.0
        elif abs(delta_n) < 1.0e-14:
            gamma = 0.0
        else:
            den = frob_id_sq
            floor = abs(delta_n) / 100.0
            if abs(den) < floor:
                den = floor if den >= 0.0 else -floor
            gamma = delta_n / den
        if gamma > 6.0:
            X = 2.0 * X - X2
            small = np.sum(X * X, axis=(2, 3)) < threshold * threshold
            X[small] = 0.0
            branch = 1
        elif gamma < 0.0:
            X = X2
            branch = 2
        else:
            X = _mult(X2, poly + gamma * G, threshold)
            branch = 3
        if frob_id_sq < threshold * frob_x_sq and branch == 3 and abs(delta_n) < 0.5:
            break
    p_blocks[...] = spin_scale * _mult(sinv, _mult(X, sinv, threshold), threshold)
