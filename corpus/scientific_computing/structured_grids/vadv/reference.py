import numpy as np

BET_M = 0.5
BET_P = 0.5


def vadv(I, J, K, dtr_stage, u_pos, u_stage, utens, utens_stage, wcon):
    """Thomas solve along K for every (i, j) column, vectorized over the I x J columns."""
    dt = utens.dtype
    cc = np.empty((I, J, K), dtype=dt)   # forward-sweep upper coefficients
    dd = np.empty((I, J, K), dtype=dt)   # forward-sweep right-hand sides
    wavg = wcon[1:, :, :] + wcon[:-1, :, :]   # wind summed over the two i faces

    for k in range(K):
        rhs = dtr_stage * u_pos[:, :, k] + utens[:, :, k] + utens_stage[:, :, k]
        if k == 0:
            gcv = 0.25 * wavg[:, :, k + 1]
            c_k = gcv * BET_P
            b_k = dtr_stage - c_k
            corr = -(gcv * BET_M) * (u_stage[:, :, k + 1] - u_stage[:, :, k])
            inv = 1.0 / b_k
            cc[:, :, k] = c_k * inv
            dd[:, :, k] = (rhs + corr) * inv
            continue
        gav = -0.25 * wavg[:, :, k]
        a_k = gav * BET_P
        corr = -(gav * BET_M) * (u_stage[:, :, k - 1] - u_stage[:, :, k])
        if k < K - 1:
            gcv = 0.25 * wavg[:, :, k + 1]
            c_k = gcv * BET_P
            b_k = dtr_stage - a_k - c_k
            corr = corr - (gcv * BET_M) * (u_stage[:, :, k + 1] - u_stage[:, :, k])
        else:
            b_k = dtr_stage - a_k
        inv = 1.0 / (b_k - cc[:, :, k - 1] * a_k)
        if k < K - 1:
            cc[:, :, k] = c_k * inv
        dd[:, :, k] = ((rhs + corr) - dd[:, :, k - 1] * a_k) * inv

    x = dd[:, :, K - 1]
    utens_stage[:, :, K - 1] = dtr_stage * (x - u_pos[:, :, K - 1])
    for k in range(K - 2, -1, -1):
        x = dd[:, :, k] - cc[:, :, k] * x
        utens_stage[:, :, k] = dtr_stage * (x - u_pos[:, :, k])
