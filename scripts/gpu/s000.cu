// tsvc_2_s000 (a[i] = b[i] + 1) as a CUDA submission, for scripts/gpu-check.sh. One source,
// eight libraries: -DVARIANT=0 correct, 1 incorrect (b[i] + 2), 2 racing (returns before its
// work is done), 3 correct but leaves a spinning kernel running after it returns (the census
// must catch it; with device residency a helper thread launches it after the return); -DDEVICE_RESIDENT: the entry gets device pointers (residency device),
// otherwise host pointers and it moves the data itself (residency host).
#include <cuda_runtime.h>
#include <stdint.h>
#include <unistd.h>

#include <thread>

#ifndef VARIANT
#define VARIANT 0
#endif

__global__ void add_one(double* __restrict__ a, const double* __restrict__ b, int64_t n,
                        double plus) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) a[i] = b[i] + plus;
}

// Spins for about `ns` nanoseconds of device time, then (when `a` is set) writes a[0].
__global__ void spin(long long ns, double* a) {
  long long start = clock64();
  // clock64 counts SM cycles; ~1.5 GHz is close enough for a delay.
  while (clock64() - start < ns * 3 / 2) {
  }
  if (a != nullptr) a[0] = -1;
}

static void launch(double* a, const double* b, int64_t n, cudaStream_t s) {
  const int threads = 256;
  const int64_t blocks = (n + threads - 1) / threads;
  // Racing: the work is queued behind a 50 ms spin on the same stream.
  if (VARIANT == 2) spin<<<1, 1, 0, s>>>(50000000LL, nullptr);
  add_one<<<static_cast<unsigned>(blocks), threads, 0, s>>>(a, b, n, VARIANT == 1 ? 2.0 : 1.0);
}

extern "C" void tsvc_2_s000_fp64(double* __restrict__ a, const double* __restrict__ b,
                                 const int64_t N, uint8_t* __restrict__ workspace,
                                 const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
#ifdef DEVICE_RESIDENT
  launch(a, b, N, s);
  // A correct device-resident entry may return without synchronizing: the runner's
  // synchronize ends the call inside the clock.
#else
  double *da = nullptr, *db = nullptr;
  const size_t bytes = static_cast<size_t>(N) * sizeof(double);
  cudaMalloc(&db, bytes);
  cudaMemcpyAsync(db, b, bytes, cudaMemcpyHostToDevice, s);
  if (VARIANT == 2) {
    // Racing: the kernel writes the host array directly (mapped, pinned) and the entry returns
    // without waiting, so the runner's copy-out races the device.
    double* mapped = nullptr;
    cudaHostRegister(a, bytes, cudaHostRegisterMapped);
    cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped), a, 0);
    launch(mapped, db, N, s);
    return;
  }
  cudaMalloc(&da, bytes);
  launch(da, db, N, s);
  cudaMemcpyAsync(a, da, bytes, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cudaFree(da);
  cudaFree(db);
#endif
  if (VARIANT == 3) {
#ifdef DEVICE_RESIDENT
    // Left running: with device residency the runner's synchronize inside the clock would
    // count a spin launched here, so a helper thread launches it after the call returned.
    std::thread([] {
      usleep(5000);
      cudaStream_t t;
      cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);
      spin<<<1, 1, 0, t>>>(200000000LL, nullptr);
    }).detach();
#else
    // Left running: a 200 ms spin on a stream of its own, launched after the answer.
    cudaStream_t t;
    cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);
    spin<<<1, 1, 0, t>>>(200000000LL, nullptr);
#endif
  }
}
