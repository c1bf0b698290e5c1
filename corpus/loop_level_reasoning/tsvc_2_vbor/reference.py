import numpy as np


def tsvc_2_vbor(a, aa, b, c, d, e, x, N):
    """x = a1*b1*c1*d1, each factor a sum of triple products of a, b, c, d, e, aa (f) as TSVC's vbor spells it."""
    a1, b1, c1, d1, e1, f1 = a, b, c, d, e, aa
    a1 = (a1 * b1 * c1 + a1 * b1 * d1 + a1 * b1 * e1 + a1 * b1 * f1 + a1 * c1 * d1
          + a1 * c1 * e1 + a1 * c1 * f1 + a1 * d1 * e1 + a1 * d1 * f1 + a1 * e1 * f1)
    b1 = b1 * c1 * d1 + b1 * c1 * e1 + b1 * c1 * f1 + b1 * d1 * e1 + b1 * d1 * f1 + b1 * e1 * f1
    c1 = c1 * d1 * e1 + c1 * d1 * f1 + c1 * e1 * f1
    d1 = d1 * e1 * f1
    x[:] = a1 * b1 * c1 * d1
