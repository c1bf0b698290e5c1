// Allocation guard for the runner. The runner exports these definitions (-rdynamic), so a
// kernel's calls to malloc and friends resolve here rather than in libc. When an allocation
// fails (RLIMIT_AS reached) the guard writes a marker line to stderr before returning NULL;
// whatever the kernel then does (crash, abort on std::bad_alloc), the judge sees the marker and
// reports `memory` instead of `crash`. The marker carries no authority: a kernel that prints it
// only earns a failing verdict.
#include <errno.h>
#include <stddef.h>
#include <unistd.h>

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
}

namespace {

void report(size_t bytes) {
  // Async-signal-safe formatting: no stdio, no allocation.
  char buf[96] = "HPCAB-RUNNER: allocation failed: ";
  size_t len = 33;
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + bytes % 10);
    bytes /= 10;
  } while (bytes != 0 && n < 24);
  while (n > 0) buf[len++] = digits[--n];
  const char tail[] = " bytes\n";
  for (size_t i = 0; i < sizeof tail - 1; ++i) buf[len++] = tail[i];
  ssize_t ignored = write(2, buf, len);
  (void)ignored;
}

void* checked(void* p, size_t bytes) {
  if (p == nullptr && bytes != 0) report(bytes);
  return p;
}

}  // namespace

extern "C" {

void* malloc(size_t n) { return checked(__libc_malloc(n), n); }

void* calloc(size_t n, size_t size) {
  void* p = __libc_calloc(n, size);
  if (p == nullptr && n != 0 && size != 0) report(n * size);
  return p;
}

void* realloc(void* p, size_t n) { return checked(__libc_realloc(p, n), n); }

void* aligned_alloc(size_t align, size_t n) { return checked(__libc_memalign(align, n), n); }

void* memalign(size_t align, size_t n) { return checked(__libc_memalign(align, n), n); }

int posix_memalign(void** out, size_t align, size_t n) {
  if (align < sizeof(void*) || (align & (align - 1)) != 0) return EINVAL;
  void* p = checked(__libc_memalign(align, n), n);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}

}  // extern "C"
