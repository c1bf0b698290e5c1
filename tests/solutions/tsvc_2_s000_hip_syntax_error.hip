// A HIP tsvc_2_s000 that does not compile (a kernel launch without its closing '>>>'):
// build_error with hipcc's message (tests/judge/judge_e2e_test.cc).
#include <hip/hip_runtime.h>

#include <cstdint>

__global__ void add_one(double* a, const double* b, int64_t n) { a[0] = b[0] + 1; }

extern "C" void tsvc_2_s000_fp64(double* __restrict__ a, const double* __restrict__ b,
                                 const int64_t N, uint8_t* __restrict__ workspace,
                                 const int64_t workspace_size) {
  add_one<<<1, 1(a, b, N);
}
