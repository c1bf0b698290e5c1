#!/usr/bin/env python3
"""Derives the constants and polynomial coefficients of the input generator's log_batch,
exp_batch and sincos_2pi_batch (common/inputs.cc; method in docs/numerics.md).

Each polynomial interpolates its function at the Chebyshev nodes of its interval (in 200-bit
arithmetic, solved directly in the monomial basis), its coefficients are then rounded to double,
and the script measures the resulting approximation error (rounded coefficients, exact
arithmetic) of the whole reconstructed function, relative to the true value, on a dense grid.
The functions being fitted are computed from their power series, so no cancellation near 0.

Usage: /usr/bin/python3 scripts/fit-generator-polys.py   (needs mpmath)
Prints the C++ constants pasted into common/inputs.cc.
"""

import mpmath
from mpmath import mp, mpf

mp.prec = 200
EPS = mpf(2) ** -53  # the double unit roundoff: 0.5 ulp of a value in [1, 2)


def rounded(x, bits=53):
    """x rounded to nearest with `bits` significant bits, as a float (exact)."""
    with mp.workprec(bits):
        y = +mpf(x)
    return float(y)


def series(coef, x, n0=0):
    """sum_{n >= n0} coef(n) x^(n - n0) to full working precision."""
    total, n = mpf(0), n0
    while True:
        term = coef(n) * x ** (n - n0)
        total += term
        if n > n0 + 4 and abs(term) < mpf(2) ** -260:
            return total
        n += 1


def interpolate(f, a, b, degree):
    """Monomial coefficients (lowest first) of the polynomial interpolating f at the degree + 1
    Chebyshev nodes of [a, b]."""
    n = degree + 1
    nodes = [(a + b) / 2 + (b - a) / 2 * mpmath.cos(mp.pi * (j + mpf(1) / 2) / n) for j in range(n)]
    vander = mpmath.matrix([[x**k for k in range(n)] for x in nodes])
    values = mpmath.matrix([f(x) for x in nodes])
    return list(mpmath.lu_solve(vander, values))


def horner(c, x):
    """The polynomial c[0] + c[1] x + ... in exact arithmetic."""
    p = mpf(0)
    for ck in reversed(c):
        p = p * x + ck
    return p


def grid(a, b, n=4000):
    return [a + (b - a) * mpf(j) / n for j in range(n + 1)]


def fit(name, f, a, b, recon, truth, test_points, split_first=None, max_rel=mpf(2) ** -59,
        max_degree=20):
    """Smallest degree whose rounded-coefficient reconstruction is within max_rel of truth.
    With split_first = bits, the constant coefficient is kept as two doubles, hi (rounded to
    that many bits) + lo (returned first, then the others), for a term whose rounding alone
    would cost more than max_rel, or which must multiply a short number exactly."""
    for degree in range(2, max_degree + 1):
        exact = interpolate(f, a, b, degree)
        c = [rounded(x) for x in exact]
        if split_first:
            hi = rounded(exact[0], split_first)
            c = [hi, rounded(exact[0] - mpf(hi))] + c[1:]
        worst = mpf(0)
        for x in test_points:
            t = truth(x)
            if t != 0:
                worst = max(worst, abs(recon(c, x) - t) / abs(t))
        if worst < max_rel:
            return degree, c, worst
    raise SystemExit(f"{name}: no degree up to {max_degree} reaches {max_rel}")


def log2_of(err):
    return float(mpmath.log(err, 2)) if err > 0 else float("-inf")


def horner_split(c, x):
    """As horner, for a split_first coefficient list: (c[0] + c[1]) + c[2] x + ..."""
    return mpf(c[0]) + mpf(c[1]) + x * horner(c[2:], x)


def emit(name, degree, c, worst, what):
    print(f"// {what}")
    print(f"// degree {degree}; max relative error of the reconstruction with these doubles:")
    print(f"// 2^{log2_of(worst):.1f} = {float(worst / EPS):.2e} x 2^-53 (scripts/fit-generator-polys.py).")
    body = ", ".join(float.hex(x) for x in c)
    print(f"constexpr double {name}[] = {{{body}}};")
    print()


def main():
    ln2 = mp.log(2)
    two_pi = 2 * mp.pi

    # Split constants. ln2_hi has 32 significant bits, so k * ln2_hi is exact for |k| < 2^21.
    ln2_hi = rounded(ln2, 32)
    ln2_lo = rounded(ln2 - mpf(ln2_hi))
    # 2 pi with 27 significant bits: times a 26-bit t it is exact.
    two_pi_hi = rounded(two_pi, 27)
    two_pi_lo = rounded(two_pi - mpf(two_pi_hi))
    print("// Constants (scripts/fit-generator-polys.py).")
    print(f"constexpr double kLn2Hi = {float.hex(ln2_hi)};  // ln 2 to 32 significant bits")
    print(f"constexpr double kLn2Lo = {float.hex(ln2_lo)};  // ln 2 - kLn2Hi")
    print(f"constexpr double kTwoPiHi = {float.hex(two_pi_hi)};  // 2 pi to 27 significant bits")
    print(f"constexpr double kTwoPiLo = {float.hex(two_pi_lo)};  // 2 pi - kTwoPiHi")
    print()

    # exp: x = (2 m + j) ln2/2 + r, exp(x) = 2^m sqrt(2)^j exp(r), j in {0, 1}, |r| <= ln2/4
    # (widened a little: k comes from a rounded 2 x/ln2). ln2/2 with 32 significant bits, so
    # k ln2/2_hi is exact for |k| < 2^21; sqrt(2) as hi + lo.
    ln2_2_hi = rounded(ln2 / 2, 32)
    ln2_2_lo = rounded(ln2 / 2 - mpf(ln2_2_hi))
    sqrt2_hi = rounded(mp.sqrt(2))
    sqrt2_lo = rounded(mp.sqrt(2) - mpf(sqrt2_hi))
    print(f"constexpr double kLn2Over2Hi = {float.hex(ln2_2_hi)};  // ln2/2 to 32 bits")
    print(f"constexpr double kLn2Over2Lo = {float.hex(ln2_2_lo)};  // ln2/2 - kLn2Over2Hi")
    print(f"constexpr double kTwoOverLn2 = {float.hex(rounded(2 / ln2))};")
    print(f"constexpr double kSqrt2Hi = {float.hex(sqrt2_hi)};")
    print(f"constexpr double kSqrt2Lo = {float.hex(sqrt2_lo)};  // sqrt(2) - kSqrt2Hi")
    print()
    # exp(r) = 1 + r + r^2 Q(r).
    fact = mpmath.factorial
    q_exp = lambda r: series(lambda n: 1 / fact(n), r, 2)
    rmax = ln2 / 4 * (1 + mpf(2) ** -20)
    deg, c, worst = fit("exp", q_exp, -rmax, rmax,
                        lambda c, r: 1 + r + r * r * horner(c, r), mp.exp, grid(-rmax, rmax))
    emit("kExpQ", deg, c, worst,
         f"exp(r) = 1 + r + r^2 Q(r), |r| <= ln2/4 (1 + 2^-20) = {float(rmax):.6f}")

    # log(1 + f) = 2 atanh(s) = 2 s + 2 s^3 P(s^2), s = f / (2 + f), 1 + f in [sqrt(1/2), sqrt(2)):
    # |s| <= 3 - 2 sqrt(2); z = s^2 in [0, zmax] (widened a little).
    p_log = lambda z: series(lambda j: mpf(1) / (2 * j + 3), z, 0)
    smax = 3 - 2 * mp.sqrt(2)
    zmax = smax**2 * (1 + mpf(2) ** -20)
    svals = [s for s in grid(-mpmath.sqrt(zmax), mpmath.sqrt(zmax))]
    deg, c, worst = fit("log", p_log, mpf(0), zmax,
                        lambda c, s: 2 * s + 2 * s**3 * horner(c, s * s),
                        lambda s: mp.log((1 + s) / (1 - s)), svals)
    emit("kLogP", deg, c, worst,
         f"log(1 + f) = 2 s + 2 s^3 P(s^2), s = f / (2 + f), s^2 <= {float(zmax):.6f} "
         "((3 - 2 sqrt 2)^2, widened)")

    # sin(2 pi t) = t (2 pi + w G(w)), cos(2 pi t) = 1 - w K(w), w = t^2, |t| <= 1/8.
    wmax = mpf(1) / 64
    g_sin = lambda w: series(lambda n: (-1) ** n * two_pi ** (2 * n + 1) / fact(2 * n + 1), w, 1)
    k_cos = lambda w: series(lambda n: (-1) ** (n + 1) * two_pi ** (2 * n) / fact(2 * n), w, 1)
    tvals = grid(-mpf(1) / 8, mpf(1) / 8)
    deg, c, worst = fit("sin", g_sin, mpf(0), wmax,
                        lambda c, t: t * (two_pi + t * t * horner_split(c, t * t)),
                        lambda t: mp.sin(two_pi * t), tvals, split_first=53)
    emit("kSinG", deg, c, worst,
         "sin(2 pi t) = t (2 pi + w G(w)), w = t^2 <= 1/64; G's constant term as hi + lo")
    deg, c, worst = fit("cos", k_cos, mpf(0), wmax,
                        lambda c, t: 1 - t * t * horner_split(c, t * t),
                        lambda t: mp.cos(two_pi * t), tvals, split_first=27)
    emit("kCosK", deg, c, worst,
         "cos(2 pi t) = 1 - w K(w), w = t^2 <= 1/64; K's constant term as hi (27 bits) + lo")


if __name__ == "__main__":
    main()
