import numpy as np


def netvlad_with_ghost_clusters(x, clusters, bn_weight, bn_bias, bn_running_mean, bn_running_var, clusters2, out,
        batch_size, num_features, cluster_size, feature_size, ghost_clusters, eps):
    """NetVLAD: soft-assign every feature vector to the clusters, sum the residuals to each visual word,
    intra-normalise per cluster, flatten and L2-normalise."""
    B, N, K, D = batch_size, num_features, cluster_size, feature_size
    # Assignment logits, batch norm with the running statistics, softmax over the clusters.
    s = x.reshape(B * N, D) @ clusters
    s = (s - bn_running_mean) / np.sqrt(bn_running_var + eps) * bn_weight + bn_bias
    e = np.exp(s - s.max(axis=1).reshape(B * N, 1))
    a = e / e.sum(axis=1).reshape(B * N, 1)
    a = a[:, :K].reshape(B, N, K)  # the ghost columns only dilute the softmax
    # vlad[b, d, k] = sum_n a[b, n, k] * (x[b, n, d] - clusters2[d, k])
    vlad = np.matmul(x.transpose(0, 2, 1), a) - a.sum(axis=1).reshape(B, 1, K) * clusters2
    norm = np.sqrt((vlad * vlad).sum(axis=1)).reshape(B, 1, K)
    vlad = vlad / np.maximum(norm, 1e-12)
    v = vlad.reshape(B, D * K)  # d-major: v[b, d*K + k]
    norm = np.sqrt((v * v).sum(axis=1)).reshape(B, 1)
    out[:] = v / np.maximum(norm, 1e-12)
