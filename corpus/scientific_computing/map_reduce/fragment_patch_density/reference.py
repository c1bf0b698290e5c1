import numpy as np


def fragment_patch_density(alpha, offsets, psi_frag, rho, N, Lb, nfrag, k):
    """rho = sum_f alpha[f] * (sum_i psi_frag[f,...,i]^2) placed at the fragment's periodic corner."""
    box = np.arange(Lb)
    rho[...] = 0.0
    for f in range(nfrag):
        pf = psi_frag[f]
        dens = (pf * pf).sum(axis=3)  # rho_F = sum_i |psi_i|^2
        xs = (offsets[f, 0] + box) % N
        ys = (offsets[f, 1] + box) % N
        zs = (offsets[f, 2] + box) % N
        rho[np.ix_(xs, ys, zs)] += alpha[f] * dens  # Lb <= N: no point repeats within a box
