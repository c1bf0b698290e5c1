# ATTACK: cache answers in files for a later submission, where a Python kernel would look:
# /tmp, /dev/shm, /var/tmp, $HOME's caches and user site-packages (a .pth file there would even
# run code at the next interpreter's start), Numba's cache dir (NUMBA_CACHE_DIR), the work dir
# KERNEL: tsvc_2_s000
# ROUTE: submit
# PHASES: 2
# EXPECT-VERDICT: ok
# Defence: every sandboxed process gets a private /tmp (tmpfs, which is also $HOME and holds
# NUMBA_CACHE_DIR), its own /dev, and a fresh work dir removed after the grade; the interpreter
# runs isolated (no user site, PYTHON* ignored, no bytecode written). Phase 1 plants the files;
# phase 2 answers wrongly if it finds any of them, so only a judge that leaks files between
# submissions makes phase 2 incorrect.
import os
import sys

PHASE = @ATTACK_PHASE@
HOME = os.environ.get("HOME", "/tmp")
PATHS = ["/tmp/hpcab-attack-cache", "/dev/shm/hpcab-attack-cache", "/var/tmp/hpcab-attack-cache",
         "/sandbox/../hpcab-attack-cache", "hpcab-attack-cache",
         os.path.join(HOME, ".cache", "hpcab-attack-cache"),
         os.path.join(HOME, ".local", "lib", "python%d.%d" % sys.version_info[:2], "site-packages",
                      "hpcab-attack.pth"),
         os.path.join(os.environ.get("NUMBA_CACHE_DIR", "/tmp/numba"), "hpcab-attack-cache")]


def planted():
    found = False
    for path in PATHS:
        if PHASE == 1:
            try:
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
                with open(path, "w") as f:
                    f.write("import os; os.environ['HPCAB_ATTACK'] = '1'\n")
            except OSError:
                pass
        elif os.path.exists(path):
            found = True
    return found or "HPCAB_ATTACK" in os.environ


def tsvc_2_s000(a, b, N):
    a[:] = 0.0 if planted() else b + 1.0
