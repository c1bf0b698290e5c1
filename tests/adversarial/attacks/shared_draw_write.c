// ATTACK: write into the shared draw (the memfd every runner of a configuration maps), so the
//         baseline and the oracle compute from inputs the candidate chose
// KERNEL: tsvc_2_s000
// ROUTE: submit
// EXPECT-VERDICT: ok
// EXPECT-MAX-SPEEDUP: 1.5
// Defence: the judge seals the memfd (F_SEAL_FUTURE_WRITE, SHRINK, GROW, SEAL) before any runner
// starts; the runner maps it read-only and closes its descriptor. This kernel tries every way
// in: mprotect of the mapping to writable, a writable mapping through the descriptor it was
// passed or through /proc/{self,1,2}/fd and /proc/self/map_files, write(2), ftruncate. Should
// any of them succeed it answers wrongly (NaN), so the grade fails; otherwise it computes
// honestly.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int wrote;

static void try_descriptor(int fd) {
  if (fd < 0) return;
  void *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (w != MAP_FAILED) {
    ((volatile char *)w)[0] ^= 1;
    wrote = 1;
    munmap(w, 4096);
  }
  char byte = 0;
  if (pwrite(fd, &byte, 1, 0) == 1) wrote = 1;
  if (ftruncate(fd, 0) == 0) wrote = 1;
}

static void attack(void) {
  try_descriptor(4);
  // Its own descriptor (closed by the runner) and any the sandbox's init may still hold.
  const char *reopen[] = {"/proc/self/fd/4", "/proc/1/fd/4", "/proc/2/fd/4"};
  for (unsigned k = 0; k < sizeof reopen / sizeof *reopen; k++) {
    int fd = open(reopen[k], O_RDWR);
    try_descriptor(fd);
    if (fd >= 0) close(fd);
  }
  FILE *maps = fopen("/proc/self/maps", "r");
  if (!maps) return;
  char line[512];
  while (fgets(line, sizeof line, maps)) {
    if (!strstr(line, "hpcab-draw")) continue;
    unsigned long lo = 0, hi = 0;
    if (sscanf(line, "%lx-%lx", &lo, &hi) != 2) continue;
    if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) == 0) {
      ((volatile char *)lo)[0] ^= 1;
      wrote = 1;
    }
    char path[128];
    snprintf(path, sizeof path, "/proc/self/map_files/%lx-%lx", lo, hi);
    int mf = open(path, O_RDWR);
    try_descriptor(mf);
    if (mf >= 0) close(mf);
  }
  fclose(maps);
}

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  attack();
  for (int64_t i = 0; i < N; i++) a[i] = wrote ? __builtin_nan("") : b[i] + 1.0;
}
