import numpy as np


def densenet121_transition_layer(x, bn_gamma, bn_beta, bn_mean, bn_var, conv_w, out,
                                 batch_size, num_input_features, num_output_features, height, width, eps):
    """BatchNorm (running statistics), ReLU, bias-free 1x1 conv, 2x2 average pool of stride 2."""
    scale = bn_gamma / np.sqrt(bn_var + eps)
    h = np.maximum((x - bn_mean[:, None, None]) * scale[:, None, None] + bn_beta[:, None, None], 0)
    ho, wo = height // 2, width // 2
    # Pooling first is the same linear map as convolving first, on a quarter of the pixels.
    pooled = h[:, :, :2 * ho, :2 * wo].reshape(batch_size, num_input_features, ho, 2, wo, 2).mean(axis=(3, 5))
    out[:] = np.tensordot(pooled, conv_w, axes=([1], [1])).transpose(0, 3, 1, 2)
