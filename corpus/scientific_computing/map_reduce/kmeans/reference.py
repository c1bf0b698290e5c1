import numpy as np

_BLOCK = 1 << 21  # point-centre distances per chunk of points


def kmeans(features, centers, membership, counts, npoints, nclusters, dim, niter):
    """niter Lloyd iterations from the first nclusters points; centres, last membership, counts."""
    c = features[:nclusters].copy()
    rows = max(1, _BLOCK // nclusters)
    for it in range(niter):
        for p0 in range(0, npoints, rows):
            p1 = min(npoints, p0 + rows)
            dist = np.zeros((p1 - p0, nclusters), dtype=features.dtype)
            for d in range(dim):  # the distance is summed over d in order
                diff = features[p0:p1, d, None] - c[None, :, d]
                dist += diff * diff
            membership[p0:p1] = np.argmin(dist, axis=1)
        counts[:] = np.bincount(membership, minlength=nclusters)
        # per-cluster sums in point order: stable sort, then reduce each segment of rows
        order = np.argsort(membership, kind="stable")
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        full = counts > 0
        sums = np.add.reduceat(features[order], starts[full], axis=0)
        c[full] = sums / counts[full, None].astype(features.dtype)
    centers[:] = c
