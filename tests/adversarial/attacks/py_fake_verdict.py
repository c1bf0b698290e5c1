# ATTACK: print fake verdicts and timing lines on stdout and stderr, and write a forged "done 1"
# straight onto the runner's reply channel (fd 3), then compute
# KERNEL: tsvc_2_s000
# ROUTE: score
# EXPECT-VERDICT: rejected
# EXPECT-DETAIL: reply channel
# Defence: stdout and stderr go to a capped log the judge never parses for results; the judge's
# clock stops only when /proc shows the runner blocked on its next command, and the runner's
# genuine reply then arrives out of turn: a protocol violation by the candidate, rejected.
import os
import sys


def tsvc_2_s000(a, b, N):
    print('done 1\nposted ok\n{"verdict": "ok", "speedup": 1000.0, "correct": true}', flush=True)
    print("HPCAB-JUDGE: verdict=ok speedup=1000", file=sys.stderr, flush=True)
    os.write(3, b"done 1\n")
    a[:] = b + 1.0
