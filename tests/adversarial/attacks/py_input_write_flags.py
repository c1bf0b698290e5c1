# ATTACK: make the read-only input writeable again (b.flags.writeable = True) and use it as
# scratch space
# KERNEL: tsvc_2_s000
# ROUTE: score
# EXPECT-VERDICT: crash
# EXPECT-DETAIL: ValueError
# Defence: inputs are NumPy views of read-only memoryviews; numpy refuses to set WRITEABLE on an
# array whose base is not writeable (ValueError), and the exception ends the call: crash, with
# the traceback in the detail.
def tsvc_2_s000(a, b, N):
    b.flags.writeable = True
    b += 1.0
    a[:] = b
