import numpy as np


def crc16(crc, messages, L, N):
    """CRC-16-CCITT (poly 0x1021, init 0xFFFF, MSB first, no final xor) of each row of messages."""
    c = np.full(N, 0xFFFF, dtype=np.uint16)
    for b in range(L):
        c ^= messages[:, b].astype(np.uint16) << 8
        for _ in range(8):
            top_bit_set = (c & 0x8000) != 0
            c = np.where(top_bit_set, (c << 1) ^ 0x1021, c << 1).astype(np.uint16)
    crc[:] = c
