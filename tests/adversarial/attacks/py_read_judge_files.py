# ATTACK: read the key file, the database, the state and scratch dirs, the judge's /proc, the
# environment and command line of every process in sight (/proc/1, /proc/self)
# KERNEL: tsvc_2_s000
# ROUTE: submit
# EXPECT-VERDICT: ok
# Defence: the sandbox mounts only the system read-only, a private /tmp and the session dir; its
# own PID namespace hides the judge (pid 1 is bubblewrap's init, started by the judge with
# PATH alone and no judge path on its command line); the runner's environment is built from
# nothing. Any judge file, process or secret this module reaches makes it answer wrongly.
import os

SECRETS = ["@KEY_FILE@", "@DB_FILE@", "@STATE_DIR@", "@SCRATCH_DIR@",
           "/proc/@JUDGE_PID@/environ", "/proc/@JUDGE_PID@/mem", "/proc/@JUDGE_PID@/cmdline",
           "/proc/@JUDGE_PID@/root"]
# What may legitimately appear in a sandbox process's environment.
ALLOWED = ("PATH=", "HOME=", "TMPDIR=", "LANG=", "OMP_NUM_THREADS=", "OMP_PROC_BIND=",
           "OMP_PLACES=", "OPENBLAS_NUM_THREADS=", "NUMBA_NUM_THREADS=", "NUMBA_CACHE_DIR=/tmp/",
           "PYTHONDONTWRITEBYTECODE=", "PWD=/sandbox")


def reachable():
    for path in SECRETS:
        try:
            os.close(os.open(path, os.O_RDONLY))
            return True
        except OSError:
            pass
    state = "@STATE_DIR@".encode()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        for what in ("environ", "cmdline"):
            try:
                with open(f"/proc/{pid}/{what}", "rb") as f:
                    text = f.read()
            except OSError:
                continue
            if state in text or b"secret" in text or b"seed" in text:
                return True
            if what == "environ":
                for var in text.split(b"\0"):
                    if var and not var.decode(errors="replace").startswith(ALLOWED):
                        return True
    return False


def tsvc_2_s000(a, b, N):
    a[:] = 0.0 if reachable() else b + 1.0
