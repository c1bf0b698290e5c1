# ATTACK: run other programs from the kernel (subprocess.run, os.system, os.posix_spawn): a
# compiler, a helper, a re-exec of the runner under LD_PRELOAD
# KERNEL: tsvc_2_s000
# ROUTE: score
# EXPECT-VERDICT: ok
# EXPECT-MAX-SPEEDUP: 1
# Defence: the runner installs a seccomp filter denying execve/execveat before it imports the
# module: every attempt fails (PermissionError, or a failed status from the child). This module
# swallows the failures and computes honestly; a program that ran would make it answer wrongly.
# (The failed forks only slow its honest tsvc_2_s000: 0.003 against C at S; the bound is the C
# reference.)
import os
import subprocess


def ran():
    try:
        if subprocess.run(["/bin/true"], timeout=5).returncode == 0:
            return True
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        if os.system("/bin/true") == 0:
            return True
    except OSError:
        pass
    try:
        pid = os.posix_spawn("/bin/true", ["/bin/true"], {})
        if os.waitpid(pid, 0)[1] == 0:
            return True
    except OSError:
        pass
    return False


def tsvc_2_s000(a, b, N):
    a[:] = 0.0 if ran() else b + 1.0
