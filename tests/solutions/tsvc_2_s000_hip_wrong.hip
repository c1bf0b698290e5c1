// An INCORRECT tsvc_2_s000 in HIP (a[i] = b[i] + 2; the reference adds 1): it builds,
// so a judge without a GPU still answers `rejected` (no_gpu), and one with a GPU
// `incorrect` (tests/judge/build_test.cc, judge_e2e_test.cc).
#include <hip/hip_runtime.h>

#include <cstdint>

template <typename T>
__global__ void add_one(T* __restrict__ a, const T* __restrict__ b, int64_t n) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) a[i] = b[i] + T(2);
}

template <typename T>
static void run(T* __restrict__ a, const T* __restrict__ b, int64_t n) {
  T *da = nullptr, *db = nullptr;
  const size_t bytes = static_cast<size_t>(n) * sizeof(T);
  if (hipMalloc(&da, bytes) != hipSuccess || hipMalloc(&db, bytes) != hipSuccess) return;
  (void)hipMemcpy(db, b, bytes, hipMemcpyHostToDevice);
  const int threads = 256;
  hipLaunchKernelGGL(add_one<T>, dim3(static_cast<unsigned>((n + threads - 1) / threads)),
                     dim3(threads), 0, 0, da, db, n);
  (void)hipMemcpy(a, da, bytes, hipMemcpyDeviceToHost);  // waits for the kernel
  (void)hipFree(da);
  (void)hipFree(db);
}

extern "C" void tsvc_2_s000_fp64(double* __restrict__ a, const double* __restrict__ b,
                                 const int64_t N, uint8_t* __restrict__ workspace,
                                 const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  run(a, b, N);
}

extern "C" void tsvc_2_s000_fp32(float* __restrict__ a, const float* __restrict__ b,
                                 const int64_t N, uint8_t* __restrict__ workspace,
                                 const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  run(a, b, N);
}
