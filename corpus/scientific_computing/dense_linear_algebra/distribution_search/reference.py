import numpy as np


def _three_level(n, size, log_v, target_f, target_b):
    """Damped Newton for the log-probabilities v of three groups of n[0], n[1], n[2] equal values
    with sum n e^v = 1, KL(p||U) = target_f and KL(U||p) = target_b; None where it fails."""

    def equations(v):
        e = np.exp(v)
        return np.array([np.dot(n, e) - 1.0,
                         np.dot(n, v) + size * (log_v + target_b),
                         np.dot(n, e * v) - (target_f - log_v)])

    v = np.array([2.0 - log_v, -log_v, -8.0 - log_v])
    previous = np.inf
    for _ in range(200):
        e = np.exp(v)
        f = equations(v)
        worst = np.max(np.abs(f))
        if worst < 1e-13:
            break
        jac = np.stack([n * e, n, n * e * (v + 1.0)])
        try:
            step = np.linalg.solve(jac, -f)
        except np.linalg.LinAlgError:
            return None
        damping = 1.0
        for _ in range(60):
            trial = np.minimum(v + damping * step, 0.0)
            if np.max(np.abs(equations(trial))) < worst:
                break
            damping *= 0.5
        else:
            trial = np.minimum(v + step, 0.0)
        v = trial
        if abs(previous - worst) < 1e-15:
            break
        previous = worst
    e = np.exp(v)
    if not np.all(np.isfinite(e)) or abs(np.dot(n, e) - 1.0) > 1e-9:
        return None
    kl_f = float(np.dot(n, e * (v + log_v)))
    kl_b = float(np.dot(n, -log_v - v) / size)
    return max(abs(kl_f - target_f), abs(kl_b - target_b)), e


def distribution_search(backward_target, forward_target, p, V):
    """A three-level distribution over V symbols with both KL divergences to uniform on target."""
    log_v = float(np.log(V))
    target_f = float(forward_target[0])
    target_b = float(backward_target[0])
    best = None
    done = False
    for frac in (0.005, 0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.2, 0.3):
        n_a = int(round(frac * V))
        for n_b in (1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597):
            n_c = V - n_a - n_b
            if n_a < 1 or n_c < 1:
                continue
            n = np.array([n_a, n_b, n_c], dtype=np.float64)
            found = _three_level(n, V, log_v, target_f, target_b)
            if found is None:
                continue
            if best is None or found[0] < best[0]:
                best = (found[0], n_a, n_b, found[1])
            if found[0] <= 1e-3:
                done = True
                break
        if done:
            break
    if best is None:
        raise ValueError("distribution_search: no three-level solution on the grid")
    _, n_a, n_b, e = best
    n_c = V - n_a - n_b
    total = n_a * e[0] + n_b * e[1] + n_c * e[2]
    p[:n_a] = e[0] / total
    p[n_a:n_a + n_b] = e[1] / total
    p[n_a + n_b:] = e[2] / total
