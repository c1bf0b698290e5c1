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
    # the occurrences KMP reports, found by filtering candidate starts symbol by symbol
    starts = np.flatnonzero(text[:N - M + 1] == pattern[0])
    for j in range(1, M):
        starts = starts[text[starts + j] == pattern[j]]
    count[0] = starts.size
    first[0] = starts[0] if starts.size > 0 else -1
