// ATTACK: a constructor rewrites libc's clock_gettime in the runner's memory so the runner's own
// clock runs 8x slow (x86-64 code patch), then computes honestly
// KERNEL: gemm
// ROUTE: score
// PRESET: S
// ARCH: x86_64
// EXPECT-VERDICT: ok
// EXPECT-SUSPECT: true
// EXPECT-DETAIL: clock tampering
// Defence: anything inside the candidate's process can be subverted, so the judge audits the
// runner's report with its own clock (from "go" until /proc shows the runner blocked on its next
// command); a report far below what the judge saw marks the configuration suspect, uncredited.
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
  d /= 8;
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
  unsigned char code[12] = {0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xE0};  // movabs; jmp rax
  uint64_t addr = (uint64_t)(uintptr_t)&slow_clock;
  memcpy(code + 2, &addr, sizeof addr);
  memcpy(target, code, sizeof code);
  mprotect(start, (size_t)page * 2, PROT_READ | PROT_EXEC);
#endif
}

void gemm_fp64(const double *restrict A, const double *restrict B, double *restrict C,
               const int64_t NI, const int64_t NJ, const int64_t NK, const double alpha,
               const double beta, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t j = 0; j < NJ; j++) C[i * NJ + j] *= beta;
    for (int64_t k = 0; k < NK; k++) {
      const double a = alpha * A[i * NK + k];
      for (int64_t j = 0; j < NJ; j++) C[i * NJ + j] += a * B[k * NJ + j];
    }
  }
}
