import numpy as np


def scattering_self_energies(D_im, D_re, G_im, G_re, Sigma_im, Sigma_re, dH_im, dH_re, neigh_idx,
                             N3D, NA, NB, NE, Nkz, Norb, Nqz, Nw):
    """Sigma[k,E,a] += sum_{q,w<=E,i,j,b} (G[k,E-w,n(a,b)] @ dH[a,b,i]) @ (dH[a,b,j] * D[q,w,a,b,i,j])."""
    D = D_re + 1j * D_im
    G = G_re + 1j * G_im
    dH = dH_re + 1j * dH_im
    Sigma = Sigma_re + 1j * Sigma_im
    Dq = D.sum(axis=0)  # the sum over q factors out of the product
    # M[w,a,b,i] = sum_j dH[a,b,j] * Dq[w,a,b,i,j]
    M = (dH[None, :, :, None, :, :, :] * Dq[:, :, :, :, :, None, None]).sum(axis=4)
    nb = neigh_idx.astype(np.int64)
    for k in range(Nkz):
        for E in range(NE):
            for w in range(min(Nw, E + 1)):
                Gn = G[k, E - w][nb]  # (NA, NB, Norb, Norb)
                T = np.matmul(Gn[:, :, None], dH)  # (NA, NB, N3D, Norb, Norb)
                Sigma[k, E] += np.matmul(T, M[w]).sum(axis=(1, 2))
    Sigma_re[...] = Sigma.real
    Sigma_im[...] = Sigma.imag
