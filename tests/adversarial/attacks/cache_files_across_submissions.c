// ATTACK: cache answers in files (/tmp, /dev/shm, $HOME, the work dir) for a later submission
// KERNEL: tsvc_2_s000
// ROUTE: submit
// PHASES: 2
// EXPECT-VERDICT: ok
// Defence: every sandboxed process gets a private /tmp (tmpfs), its own /dev, and a fresh work
// dir removed after the grade; nothing written by one submission is visible to the next.
// Phase 1 plants the files; phase 2 answers wrongly if it finds any of them, so only a judge
// that leaks files between submissions makes phase 2 incorrect.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *paths[] = {"/tmp/hpcab-attack-cache", "/dev/shm/hpcab-attack-cache",
                              "/var/tmp/hpcab-attack-cache", "/sandbox/../hpcab-attack-cache",
                              "hpcab-attack-cache"};

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int leaked = 0;
  for (unsigned k = 0; k < sizeof paths / sizeof *paths; k++) {
#if ATTACK_PHASE == 1
    FILE *f = fopen(paths[k], "w");
    if (f) {
      fputs("cached", f);
      fclose(f);
    }
#else
    if (access(paths[k], F_OK) == 0) leaked = 1;
#endif
  }
  for (int64_t i = 0; i < N; i++) a[i] = leaked ? 0.0 : b[i] + 1.0;
}
