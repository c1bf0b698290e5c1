import numpy as np

_C0 = -205.0 / 72.0
_CW = (8.0 / 5.0, -1.0 / 5.0, 8.0 / 315.0, -1.0 / 560.0)  # 8th-order second-derivative weights
_NLANC = 6  # Lanczos steps of the one-off upper spectral bound
_AX = 0.9847450218426965  # (3/pi)^(1/3), Slater exchange
_GAMMA, _B1, _B2 = -0.1423, 1.0529, 0.3334  # Perdew-Zunger, rs >= 1
_A, _B, _C, _D = 0.0311, -0.0480, 0.0020, -0.0116  # Perdew-Zunger, rs < 1


def _hpsi(X, vloc, P, D, hih2):
    # fragment Hamiltonian on a block of states: -1/2 nabla^2 (periodic stencil) + V_local + KB nonlocal
    acc = (3.0 * _C0) * X
    for axis in (0, 1, 2):
        for m, w in enumerate(_CW, start=1):
            acc = acc + w * (np.roll(X, m, axis=axis) + np.roll(X, -m, axis=axis))
    hx = -hih2 * acc + vloc[..., None] * X
    flat = X.reshape(-1, X.shape[-1])
    return hx + (P @ (D @ (P.T @ flat))).reshape(X.shape)


def _upper_bound(vloc, P, D, hih2, v):
    # k-step Lanczos: the largest Ritz value plus the last residual norm bounds the spectrum from above
    v = v / (np.linalg.norm(v) + 1.0e-30)
    v_prev = np.zeros_like(v)
    alphas = []
    betas = []
    beta = 0.0
    for _ in range(_NLANC):
        w = _hpsi(v[..., None], vloc, P, D, hih2)[..., 0]
        a = float(np.sum(v * w))
        w = w - a * v - beta * v_prev
        beta = float(np.linalg.norm(w))
        alphas.append(a)
        if beta < 1.0e-12:
            break
        v_prev, v = v, w / beta
        betas.append(beta)
    n = len(alphas)
    T = np.diag(np.array(alphas))
    if n > 1:
        off = np.array(betas[:n - 1])
        T = T + np.diag(off, 1) + np.diag(off, -1)
    return float(np.linalg.eigvalsh(T).max()) + beta


def _cheb_filter(vloc, P, D, hih2, X, m, a, b, a0):
    # degree-m scaled Chebyshev filter damping [a, b]
    e = 0.5 * (b - a)
    c = 0.5 * (b + a)
    sigma = e / (a0 - c)
    sigma1 = sigma
    Y = (_hpsi(X, vloc, P, D, hih2) - c * X) * (sigma1 / e)
    for _ in range(2, m + 1):
        sigma_new = 1.0 / (2.0 / sigma1 - sigma)
        Ynew = (_hpsi(Y, vloc, P, D, hih2) - c * Y) * (2.0 * sigma_new / e) - (sigma * sigma_new) * X
        X, Y, sigma = Y, Ynew, sigma_new
    return Y


def _rayleigh_ritz(vloc, P, D, hih2, Y):
    # orthonormalise Y in its own metric and rotate it to the Ritz vectors of H; Ritz values ascending
    shp = Y.shape
    k = shp[-1]
    Yf = Y.reshape(-1, k)
    Wf = _hpsi(Y, vloc, P, D, hih2).reshape(-1, k)
    hs = Yf.T @ Wf
    ss = Yf.T @ Yf
    hs = 0.5 * (hs + hs.T)
    ss = 0.5 * (ss + ss.T) + 1.0e-12 * np.eye(k)
    Linv = np.linalg.inv(np.linalg.cholesky(ss))
    w, U = np.linalg.eigh(Linv @ hs @ Linv.T)
    return (Yf @ (Linv.T @ U)).reshape(shp), w


def _genpot(rho, V_ion, h):
    # V_tot = Hartree (FFT Poisson, G = 0 dropped) + V_ion + LDA exchange-correlation, zero mean
    N = rho.shape[0]
    rho_g = np.fft.fftn(rho - rho.mean())
    kx = 2.0 * np.pi * np.fft.fftfreq(N, d=h)
    gsq = kx[:, None, None] ** 2 + kx[None, :, None] ** 2 + kx[None, None, :] ** 2
    gsq[0, 0, 0] = 1.0
    v_g = 4.0 * np.pi * rho_g / gsq
    v_g[0, 0, 0] = 0.0
    v_h = np.fft.ifftn(v_g).real
    n = np.maximum(rho, 1.0e-12)
    rs = (3.0 / (4.0 * np.pi * n)) ** (1.0 / 3.0)
    v_x = -_AX * n ** (1.0 / 3.0)
    srs = np.sqrt(rs)
    lrs = np.log(rs)
    den = 1.0 + _B1 * srs + _B2 * rs
    vc_lo = (_GAMMA / den) * (1.0 + (7.0 / 6.0) * _B1 * srs + (4.0 / 3.0) * _B2 * rs) / den
    vc_hi = _A * lrs + (_B - _A / 3.0) + (2.0 / 3.0) * _C * rs * lrs + ((2.0 * _D - _C) / 3.0) * rs
    v = v_h + V_ion + v_x + np.where(rs < 1.0, vc_hi, vc_lo)
    return v - v.mean()


def ls3df_scf(V_ion, V_tot, alpha, dij, offsets, proj, psi_frag, rho, Lb, N, dvol, half_inv_h2, m, mix,
              nfrag, nproj, nscf, nstate, tol):
    """LS3DF divide-and-conquer SCF: per-fragment CheFSI + Rayleigh-Ritz, signed density patching,
    linear mixing, and the Hartree + LDA potential, for up to nscf iterations."""
    h = float(np.sqrt(0.5 / half_inv_h2))
    box = np.arange(Lb)
    P_all = proj.reshape(nfrag, Lb * Lb * Lb, nproj)
    D_all = 0.5 * (dij + np.transpose(dij, (0, 2, 1)))  # the coupling is symmetric
    psi = psi_frag.copy()  # the fragment states are updated between SCF steps (local copy)
    rho_in = rho.copy()
    nelec = float(rho_in.sum()) * dvol
    V = _genpot(rho_in, V_ion, h)
    b_frag = np.zeros(nfrag)
    for it in range(nscf):
        rho_out = np.zeros_like(rho_in)
        for f in range(nfrag):
            grid = np.ix_((offsets[f, 0] + box) % N, (offsets[f, 1] + box) % N, (offsets[f, 2] + box) % N)
            vloc = V[grid]
            P, D = P_all[f], D_all[f]
            if it == 0:
                b_frag[f] = 1.2 * _upper_bound(vloc, P, D, half_inv_h2, psi[f][..., 0])
            X, w = _rayleigh_ritz(vloc, P, D, half_inv_h2, psi[f])
            b_hi = max(b_frag[f], w[-1] * 1.1 + 1.0)
            Y = _cheb_filter(vloc, P, D, half_inv_h2, X, m, w[-1], b_hi, w[0])
            X, w = _rayleigh_ritz(vloc, P, D, half_inv_h2, Y)
            psi[f] = X
            rho_out[grid] += alpha[f] * np.sum(X * X, axis=3)  # occupations 1: sum_i |psi_i|^2
        rho_out = np.maximum(rho_out, 0.0)
        q = float(rho_out.sum()) * dvol
        if q > 0.0:
            rho_out *= nelec / q
        err = float(np.abs(rho_out - rho_in).sum()) / (float(np.abs(rho_in).sum()) + 1.0e-30)
        rho_in = rho_in + mix * (rho_out - rho_in)
        V = _genpot(rho_in, V_ion, h)
        if err < tol:
            break
    rho[...] = rho_in
    V_tot[...] = V
