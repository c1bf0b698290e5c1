import numpy as np


def fft_1d(x_re, x_im, y_re, y_im, N):
    """y = DFT(x) (numpy.fft.fft convention), complex values split into real and imaginary arrays."""
    y = np.fft.fft(x_re + 1j * x_im)
    y_re[:] = y.real
    y_im[:] = y.imag
