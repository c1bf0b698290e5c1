import numpy as np


def kmp(count, fail, first, pattern, text, M, N):
    """Prefix function of pattern, then the number and first start of its occurrences in text."""
    # prefix function (M is small)
    fail[0] = 0
    k = 0
    for j in range(1, M):
        while k > 0 and pattern[j] != pattern[k]:
            k = fail[k - 1]
        if pattern[j] == pattern[k]:
            k += 1
        fail[j] = k
    # the occurrences KMP reports: starts where every pattern symbol matches
    L = N - M + 1
    hit = text[0:L] == pattern[0]
    for j in range(1, M):
        hit &= text[j:j + L] == pattern[j]
    count[0] = np.sum(hit)
    first[0] = np.argmax(hit) if count[0] > 0 else -1
