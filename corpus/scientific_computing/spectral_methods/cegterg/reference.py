import numpy as np
from scipy.linalg import eigh

_MAXTER = 100  # Davidson iterations allowed (QE's maxter is 20; see the description)
_ETHR = 1.0e-13  # eigenvalue convergence threshold (QE's caller passes ~1e-8..1e-13)
_METRIC = (1.0, 1.7, 2.6)  # anisotropic reciprocal metric (a non-cubic cell)


def _plane_waves(ngrid):
    # the G-sphere |h|^2 <= hmax^2, hmax = ngrid/2 - 1, sorted by kinetic energy (QE gk_sort)
    hmax = ngrid // 2 - 1
    h = np.arange(-hmax, hmax + 1)
    hx, hy, hz = np.meshgrid(h, h, h, indexing="ij")
    hx, hy, hz = hx.ravel(), hy.ravel(), hz.ravel()
    keep = hx * hx + hy * hy + hz * hz <= hmax * hmax
    hx, hy, hz = hx[keep], hy[keep], hz[keep]
    g2 = _METRIC[0] * hx * hx + _METRIC[1] * hy * hy + _METRIC[2] * hz * hz
    order = np.argsort(g2, kind="stable")
    return g2[order], hx[order] % ngrid, hy[order] % ngrid, hz[order] % ngrid


def cegterg(e, vrs, ngrid, nvec):
    """Lowest nvec eigenvalues of H = |k+G|^2 + V(r) (plane waves) by QE's block Davidson."""
    g2, ix, iy, iz = _plane_waves(ngrid)
    npw = g2.shape[0]
    nvecx = 4 * nvec
    v = vrs.astype(np.float64)

    def h_psi(X):
        # kinetic term, plus V(r) by FFT: scatter to the grid, to real space, multiply, back, gather
        m = X.shape[1]
        grid = np.zeros((ngrid, ngrid, ngrid, m), dtype=np.complex128)
        grid[ix, iy, iz, :] = X
        r = np.fft.ifftn(grid, axes=(0, 1, 2)) * v[..., None]
        return g2[:, None] * X + np.fft.fftn(r, axes=(0, 1, 2))[ix, iy, iz, :]

    h_diag = g2 + float(v.mean())  # usnldiag: kinetic + V(G=0); S = 1 (norm-conserving)

    def g_psi(X, ev):
        # QE g_1psi: divide by 0.5 (1 + x + sqrt(1 + (x - 1)^2)), x = h_diag - e s_diag
        x = h_diag[:, None] - ev[None, :]
        X /= 0.5 * (1.0 + x + np.sqrt(1.0 + (x - 1.0) ** 2))

    def diaghg(n):
        a = hc[:n, :n]
        b = sc[:n, :n]
        w, z = eigh(a, b, lower=False, subset_by_index=[0, nvec - 1])
        return w, z

    # deterministic initial guess (upstream: a random normalised block)
    gi = np.arange(npw, dtype=np.float64)[:, None]
    ji = np.arange(nvec, dtype=np.float64)[None, :]
    evc = (np.cos(0.7 * gi * (ji + 1.0) + 0.3 * ji) + 1j * np.sin(0.4 * gi * (ji + 2.0))) / (1.0 + g2[:, None])
    evc /= np.linalg.norm(evc, axis=0, keepdims=True)

    psi = np.zeros((npw, nvecx), dtype=np.complex128)
    hpsi = np.zeros((npw, nvecx), dtype=np.complex128)
    hc = np.zeros((nvecx, nvecx), dtype=np.complex128)
    sc = np.zeros((nvecx, nvecx), dtype=np.complex128)
    vc = np.zeros((nvecx, nvecx), dtype=np.complex128)
    ew = np.zeros(nvecx)
    ev = np.zeros(nvec)
    conv = np.zeros(nvec, dtype=bool)

    nbase = nvec
    notcnv = nvec
    psi[:, :nvec] = evc
    hpsi[:, :nvec] = h_psi(psi[:, :nvec])
    hc[:nbase, :nbase] = psi[:, :nbase].conj().T @ hpsi[:, :nbase]
    sc[:nbase, :nbase] = psi[:, :nbase].conj().T @ psi[:, :nbase]
    w, z = diaghg(nbase)
    ev[:] = w
    vc[:nbase, :nvec] = z

    for kter in range(1, _MAXTER + 1):
        unconv = np.nonzero(~conv)[0]
        vc[:, :notcnv] = vc[:, unconv]
        ew[nbase:nbase + notcnv] = ev[unconv]
        nb1 = nbase
        # correction vectors: preconditioned residuals (H - e S) psi vc of the unconverged roots
        res = hpsi[:, :nbase] @ vc[:nbase, :notcnv] - ew[nb1:nb1 + notcnv][None, :] * (psi[:, :nbase] @ vc[:nbase, :notcnv])
        g_psi(res, ew[nb1:nb1 + notcnv])
        res /= np.sqrt(np.sum(res.real ** 2 + res.imag ** 2, axis=0))[None, :]
        psi[:, nb1:nb1 + notcnv] = res
        hpsi[:, nb1:nb1 + notcnv] = h_psi(res)
        nend = nbase + notcnv
        hc[nb1:nend, :nend] = hpsi[:, nb1:nend].conj().T @ psi[:, :nend]
        sc[nb1:nend, :nend] = psi[:, nb1:nend].conj().T @ psi[:, :nend]
        nbase = nend
        # the reduced matrices are Hermitian: mirror the new rows into the upper triangle
        hc[:nb1, nb1:nend] = hc[nb1:nend, :nb1].conj().T
        sc[:nb1, nb1:nend] = sc[nb1:nend, :nb1].conj().T
        w, z = diaghg(nbase)
        vc[:nbase, :nvec] = z
        conv = np.abs(w - ev) < _ETHR
        notcnv = int(np.count_nonzero(~conv))
        ev[:] = w
        if notcnv == 0 or nbase + notcnv > nvecx or kter == _MAXTER:
            evc = psi[:, :nbase] @ vc[:nbase, :nvec]
            if notcnv == 0 or kter == _MAXTER:
                break
            # restart from the current Ritz vectors
            hnew = hpsi[:, :nbase] @ vc[:nbase, :nvec]
            psi[:, :nvec] = evc
            hpsi[:, :nvec] = hnew
            nbase = nvec
            hc[:] = 0.0
            sc[:] = 0.0
            vc[:] = 0.0
            d = np.arange(nvec)
            hc[d, d] = ev
            sc[d, d] = 1.0
            vc[d, d] = 1.0
    e[:] = ev
