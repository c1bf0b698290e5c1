# ATTACK: return at once and let a threading.Thread write the outputs after the clock stopped
# KERNEL: tsvc_2_s000
# ROUTE: score
# EXPECT-VERDICT: rejected|incorrect
# EXPECT-DETAIL: the clock|expected
# Defence: the runner holds the GIL from the return until the next call, so the thread cannot run
# Python between calls: the outputs copied out right after the return are the poison the runner
# left in them, not the answer (incorrect, at the presets), and the thread's writes land inside
# a later call's clock, on that call's draw. Work that does go on after the return (at calibrated
# sizes a thread that got the GIL inside a later call is inside numpy's add, which runs without
# the GIL for large arrays, when that call returns) is seen as for a C kernel's pthread: the
# judge's census of the other threads' CPU between calls ("work outside the clock") or the
# late-write check on the live outputs ("changed after the call returned ... escapes the
# clock"); either rejection names the clock.
import threading
import time


def work(a, b):
    time.sleep(0.0002)  # let the call return first
    a[:] = b + 1.0


def tsvc_2_s000(a, b, N):
    threading.Thread(target=work, args=(a, b), daemon=True).start()
