import numpy as np


def dfa(accept, accepted, delta, final, text, visits, N, NA, NS):
    """Run the DFA delta from state 0 over text; count the states visited and the accepting steps."""
    # One transition per symbol: the chain of states is inherently sequential.
    visits[:] = 0
    s = 0
    for i in range(N):
        s = delta[s, text[i]]
        visits[s] += 1
    accepted[0] = np.sum(visits[accept != 0])
    final[0] = s
