# ATTACK: os.fork() a helper process that keeps running after the call (named hpcab-evil)
# KERNEL: tsvc_2_s000
# ROUTE: score
# EXPECT-VERDICT: rejected
# EXPECT-DETAIL: running after the call returned
# Defence: after every call the judge lists the sandbox's processes through /proc and rejects
# anything besides bubblewrap and the runner; the sandbox tree is then killed (the test also
# checks that no process of the sandbox survives the grade).
import ctypes
import os
import signal

forked = False


def tsvc_2_s000(a, b, N):
    global forked
    if not forked:
        forked = True
        if os.fork() == 0:
            ctypes.CDLL(None).prctl(15, b"hpcab-evil", 0, 0, 0)  # PR_SET_NAME
            while True:
                signal.pause()
    a[:] = b + 1.0
