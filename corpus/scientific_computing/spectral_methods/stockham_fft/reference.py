import numpy as np


def stockham_fft(x_re, x_im, y_re, y_im, K, N, R):
    """y = DFT(x) (numpy.fft.fft convention) for N = R**K; x is scratch and ends holding y too."""
    y = np.fft.fft(x_re + 1j * x_im)
    y_re[:] = y.real
    y_im[:] = y.imag
    x_re[:] = y_re
    x_im[:] = y_im
