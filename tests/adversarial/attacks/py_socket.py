# ATTACK: open TCP sockets to the judge's own port and to an outside address (to reach the judge's
# API, or to send the inputs out and fetch answers)
# KERNEL: tsvc_2_s000
# ROUTE: score
# EXPECT-VERDICT: ok
# EXPECT-MAX-SPEEDUP: 1
# Defence: seccomp denies every socket family but AF_UNIX (PermissionError at socket()), and the
# sandbox's own network namespace has only a loopback on which nothing listens. Any connection
# that opens makes this module answer wrongly. (The failed attempts only slow its honest tsvc_2_s000:
# 0.015 against C at S; the bound is the C reference.)
import socket

TARGETS = [(socket.AF_INET, ("127.0.0.1", @JUDGE_PORT@)), (socket.AF_INET, ("1.1.1.1", 80)),
           (socket.AF_INET6, ("::1", @JUDGE_PORT@))]


def connected():
    for family, address in TARGETS:
        for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
            try:
                with socket.socket(family, kind) as s:
                    s.settimeout(0.2)
                    s.connect(address)
                    s.send(b"GET /health HTTP/1.0\r\n\r\n")
                    return True
            except OSError:
                pass
    return False


def tsvc_2_s000(a, b, N):
    a[:] = 0.0 if connected() else b + 1.0
