/* A stand-in for the CUDA runtime library (libcudart), for testing hpcab-runner's GPU path on a
 * machine without a GPU: "device" memory is host memory, so a plain C kernel run on device
 * pointers computes the right answer. It exports exactly the entry points judge/runner/
 * device.cc resolves. Environment knobs (read at each call) make it misbehave:
 *   FAKE_CUDART_DEVICES=0         reports no device
 *   FAKE_CUDART_SLOW_SYNC_NS=n    every synchronize waits n ns (the census then sees pending
 *                                 work, as after a kernel left running)
 *   FAKE_CUDART_LOG=path          appends one line per call (malloc, h2d, d2h, memset, sync)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void note(const char* what, size_t bytes) {
  const char* path = getenv("FAKE_CUDART_LOG");
  if (path == NULL) return;
  FILE* f = fopen(path, "a");
  if (f == NULL) return;
  fprintf(f, "%s %zu\n", what, bytes);
  fclose(f);
}

int cudaMalloc(void** p, size_t n) {
  *p = malloc(n ? n : 1);
  note("malloc", n);
  return *p ? 0 : 2;
}
int cudaFree(void* p) {
  free(p);
  return 0;
}
int cudaMemcpy(void* d, const void* s, size_t n, int kind) {
  memcpy(d, s, n);
  note(kind == 1 ? "h2d" : "d2h", n);
  return 0;
}
int cudaMemset(void* d, int v, size_t n) {
  memset(d, v, n);
  note("memset", n);
  return 0;
}
int cudaDeviceSynchronize(void) {
  const char* slow = getenv("FAKE_CUDART_SLOW_SYNC_NS");
  note("sync", 0);
  if (slow != NULL) {
    long ns = atol(slow);
    struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
    nanosleep(&ts, NULL);
  }
  return 0;
}
int cudaGetLastError(void) { return 0; }
const char* cudaGetErrorString(int e) { return e == 100 ? "no CUDA-capable device" : "fake error"; }
int cudaGetDeviceCount(int* n) {
  const char* d = getenv("FAKE_CUDART_DEVICES");
  *n = d ? atoi(d) : 1;
  return *n == 0 ? 100 : 0;
}
int cudaSetDevice(int i) { return i == 0 ? 0 : 101; }
int cudaGetDeviceProperties_v2(void* props, int i) {
  (void)i;
  strcpy((char*)props, "fake GPU");
  return 0;
}
