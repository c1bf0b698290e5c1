# ATTACK: compute on the first call only, then replay the remembered answer (a module-global
# call counter and a copy of the first result)
# KERNEL: tsvc_2_s000
# ROUTE: score
# EXPECT-VERDICT: incorrect
# EXPECT-DETAIL: expected
# Defence: the module lives as long as the runner process, so its globals do too (as a C
# library's statics); but every call gets a fresh draw and every call's outputs are checked
# (outputs <= 64 MiB), so the replayed answer is wrong from the second call on.
import numpy as np

calls = 0
cache = None


def tsvc_2_s000(a, b, N):
    global calls, cache
    calls += 1
    if calls > 1 and cache is not None:
        a[:] = cache
        return
    a[:] = b + 1.0
    cache = a.copy()
