// ATTACK: look for descriptors inherited from the judge: its listening socket (accept the
// judge's own clients and answer them with forged verdicts), client connections, pipes, files
// KERNEL: tsvc_2_s000
// ROUTE: submit
// EXPECT-VERDICT: ok
// Defence: the judge's child closes every descriptor but stdin, stdout, stderr, the reply
// channel and the seccomp program before it executes bubblewrap. This kernel answers wrongly if
// it finds any socket, or any descriptor above 3 that it did not open itself.
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

static int inherited(void) {
  for (int fd = 0; fd < 4096; fd++) {
    struct stat st;
    if (fstat(fd, &st) != 0) continue;
    if (S_ISSOCK(st.st_mode)) return 1;
    if (fd > 3) return 1;
  }
  return 0;
}

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int leak = inherited();
  for (int64_t i = 0; i < N; i++) a[i] = leak ? 0.0 : b[i] + 1.0;
}
