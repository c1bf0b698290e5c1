import numpy as np


def arc_distance(theta_1, phi_1, theta_2, phi_2, distance, N):
    """Haversine great-circle distance between (theta_1, phi_1) and (theta_2, phi_2)."""
    t = theta_1.dtype.type
    s_theta = np.sin((theta_2 - theta_1) / t(2))
    s_phi = np.sin((phi_2 - phi_1) / t(2))
    temp = s_theta * s_theta + np.cos(theta_1) * np.cos(theta_2) * (s_phi * s_phi)
    distance[:] = t(2) * np.arctan2(np.sqrt(temp), np.sqrt(t(1) - temp))
