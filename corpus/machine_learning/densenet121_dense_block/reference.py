import numpy as np


def _conv3x3_same(h, w):
    """Bias-free 3x3 convolution, stride 1, zero padding 1, of one (C, H, W) image; w is (O, C, 3, 3)."""
    c, hh, ww = h.shape
    hp = np.zeros((c, hh + 2, ww + 2), dtype=h.dtype)
    hp[:, 1:hh + 1, 1:ww + 1] = h
    taps = np.ascontiguousarray(w.transpose(2, 3, 0, 1))  # (3, 3, O, C): contiguous taps for BLAS
    acc = np.zeros((w.shape[0], hh * ww), dtype=h.dtype)
    for p in range(3):
        for q in range(3):
            acc += taps[p, q] @ hp[:, p:p + hh, q:q + ww].reshape(c, hh * ww)
    return acc.reshape(w.shape[0], hh, ww)


def densenet121_dense_block(x, bn0_gamma, bn0_beta, bn0_mean, bn0_var, conv0_w, bn1_gamma, bn1_beta, bn1_mean, bn1_var, conv1_w, bn2_gamma, bn2_beta, bn2_mean, bn2_var, conv2_w, bn3_gamma, bn3_beta, bn3_mean, bn3_var, conv3_w, bn4_gamma, bn4_beta, bn4_mean, bn4_var, conv4_w, bn5_gamma, bn5_beta, bn5_mean, bn5_var, conv5_w, out,
                            batch_size, num_input_features, growth_rate, height, width, eps):
    """Six dense layers: layer i maps the running concatenation (num_input_features + i*growth_rate channels)
    through BatchNorm (running statistics), ReLU and a 3x3 conv to growth_rate new channels, appended."""
    layers = ((bn0_gamma, bn0_beta, bn0_mean, bn0_var, conv0_w),
              (bn1_gamma, bn1_beta, bn1_mean, bn1_var, conv1_w),
              (bn2_gamma, bn2_beta, bn2_mean, bn2_var, conv2_w),
              (bn3_gamma, bn3_beta, bn3_mean, bn3_var, conv3_w),
              (bn4_gamma, bn4_beta, bn4_mean, bn4_var, conv4_w),
              (bn5_gamma, bn5_beta, bn5_mean, bn5_var, conv5_w))
    out[:, :num_input_features] = x
    c = num_input_features
    for gamma, beta, mean, var, w in layers:
        scale = gamma / np.sqrt(var + eps)
        for n in range(batch_size):
            h = np.maximum((out[n, :c] - mean[:, None, None]) * scale[:, None, None] + beta[:, None, None], 0)
            out[n, c:c + growth_rate] = _conv3x3_same(h, w)
        c += growth_rate
