// An INCORRECT tsvc_2_s000 in CUDA (a[i] = b[i] + 2; the reference adds 1): it builds,
// so a judge without a GPU still answers `rejected` (no_gpu), and one with a GPU
// `incorrect` (tests/judge/build_test.cc, judge_e2e_test.cc).
#include <cuda_runtime.h>

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
  if (cudaMalloc(&da, bytes) != cudaSuccess || cudaMalloc(&db, bytes) != cudaSuccess) return;
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  const int threads = 256;
  add_one<<<static_cast<unsigned>((n + threads - 1) / threads), threads>>>(da, db, n);
  cudaMemcpy(a, da, bytes, cudaMemcpyDeviceToHost);  // waits for the kernel
  cudaFree(da);
  cudaFree(db);
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
