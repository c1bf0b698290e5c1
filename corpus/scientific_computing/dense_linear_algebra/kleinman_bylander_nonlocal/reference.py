import numpy as np


def kleinman_bylander_nonlocal(beta, dij, psi, hpsi, ngrid, nproj, nstate):
    """hpsi = beta @ (dij @ (beta^T @ psi)): project, couple, scatter back."""
    overlap = beta.T @ psi  # <beta_q | psi_j>, (nproj, nstate)
    hpsi[...] = beta @ (dij @ overlap)
