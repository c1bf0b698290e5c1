// ATTACK: the same clock patch on a small streaming kernel, where calls are so short that the
// judge's clock cannot resolve the lie (the runner reports 1/100 of the real time)
// KERNEL: tsvc_2_s231
// ROUTE: score
// ARCH: x86_64
// EXPECT-VERDICT: ok
// EXPECT-SUSPECT: true
// EXPECT-DETAIL: physical floor|clock tampering
// Defence: the bandwidth floor. The column recurrence must move its declared bytes (3*N*N*8:
// 96 KiB at preset S, N = 64); the judge measured this machine's bandwidth at that working-set
// size once (STREAM-style, cached in the state dir), and a median call faster than a fraction
// of bytes / bandwidth is marked suspect, not credited. (On a slow or loaded host the calls may
// last long enough for the clock audit to see the lie first: suspect either way.) Not tsvc_2_s000:
// at the paper's S (512 elements, 8 KiB) a call is mostly the runner's fixed cost, and 1/100
// of it lands on the floor itself.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static struct timespec origin;

static int slow_clock(clockid_t id, struct timespec *ts) {
  struct timespec now;
  long r = syscall(SYS_clock_gettime, id, &now);
  int64_t d = (int64_t)(now.tv_sec - origin.tv_sec) * 1000000000 + (now.tv_nsec - origin.tv_nsec);
  d /= 100;
  ts->tv_sec = origin.tv_sec + d / 1000000000;
  ts->tv_nsec = origin.tv_nsec + d % 1000000000;
  if (ts->tv_nsec >= 1000000000) {
    ts->tv_sec++;
    ts->tv_nsec -= 1000000000;
  }
  return (int)r;
}

__attribute__((constructor)) static void patch(void) {
#if defined(__x86_64__)
  syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &origin);
  unsigned char *target = dlsym(RTLD_DEFAULT, "clock_gettime");
  if (!target) return;
  long page = sysconf(_SC_PAGESIZE);
  unsigned char *start = (unsigned char *)((uintptr_t)target & ~(uintptr_t)(page - 1));
  if (mprotect(start, (size_t)page * 2, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return;
  unsigned char code[12] = {0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xE0};
  uint64_t addr = (uint64_t)(uintptr_t)&slow_clock;
  memcpy(code + 2, &addr, sizeof addr);
  memcpy(target, code, sizeof code);
  mprotect(start, (size_t)page * 2, PROT_READ | PROT_EXEC);
#endif
}

void tsvc_2_s231_fp64(double *restrict aa, const double *restrict bb, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 1; j < N; j++)  // interchanged: contiguous and vectorized, honest work
    for (int64_t i = 0; i < N; i++) aa[j * N + i] = aa[(j - 1) * N + i] + bb[j * N + i];
}
