import numpy as np


def fft_3d(chk_im, chk_re, twiddle, u0_im, u0_re, niter, nx, ny, nz):
    """Forward 3-D FFT once, then niter evolve-and-inverse-transform steps, each checksummed."""
    spectrum = np.fft.fftn(u0_re.astype(np.float64) + 1j * u0_im.astype(np.float64))
    j = np.arange(1, 1025)
    pts = (j % nx, (3 * j) % ny, (5 * j) % nz)
    decay = twiddle.astype(np.float64)
    for it in range(1, niter + 1):
        field = np.fft.ifftn(spectrum * np.exp(decay * it))
        total = np.sum(field[pts])
        chk_re[it - 1] = total.real
        chk_im[it - 1] = total.imag
