// ATTACK: #include the judge's database by absolute path
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: build_error
// EXPECT-DETAIL: judge.db
// Defence: the build sandbox has no judge state dir.
#include <stdint.h>

static const char stolen[] = {
#include "@DB_FILE@"
};

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0 + 0 * stolen[0];
}
