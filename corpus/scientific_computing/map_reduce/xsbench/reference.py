import numpy as np


def xsbench(concs, energy, mat_samples, mats, num_nucs, out, p_energy_samples, xs,
            max_num_nucs, n_gridpoints, n_isotopes, n_materials, n_samples):
    """Macroscopic cross sections of n_samples lookups on an interleaved unionized energy grid."""
    niso = n_isotopes
    ng = n_gridpoints
    N = niso * ng
    e_lo = energy[niso - 1]
    e_hi = energy[(ng - 1) * niso]
    p = e_lo + p_energy_samples * (e_hi - e_lo)
    # XSBench's grid_search: the last idx with energy[idx] <= p, kept in [0, N-2]
    idx = np.searchsorted(energy, p, side="right") - 1
    idx = np.minimum(np.maximum(idx, 0), N - 2)
    xsf = xs.reshape(niso * ng, 5)
    nn = num_nucs[mat_samples]
    acc = np.zeros((n_samples, 5), dtype=xs.dtype)
    for j in range(max_num_nucs):
        nuc = mats[mat_samples, j].astype(np.int64)
        conc = concs[mat_samples, j]
        g = np.minimum((idx - nuc) // niso, ng - 2)
        e_low = energy[g * niso + nuc]
        e_high = energy[(g + 1) * niso + nuc]
        f = (e_high - p) / (e_high - e_low)
        lo = xsf[nuc * ng + g]
        hi = xsf[nuc * ng + g + 1]
        val = hi - f[:, None] * (hi - lo)
        acc += np.where((j < nn)[:, None], val * conc[:, None], xs.dtype.type(0))
    out[:] = acc
