/* Linked only into the binaries that ship in the package (CUDA_DRIVER_PORTABLE).
 * They link GCC 12's static libstdc++ against a glibc 2.17 sysroot. That
 * libstdc++ was compiled on a newer glibc and names three symbols older glibcs
 * lack; defining them here, hidden, keeps the binary's needs at glibc 2.17. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_getrandom /* the sysroot's kernel headers predate getrandom(2) */
#if defined(__x86_64__)
#define SYS_getrandom 318
#elif defined(__aarch64__)
#define SYS_getrandom 278
#endif
#endif

#define HIDDEN __attribute__((visibility("hidden")))

/* libstdc++ skips atomic reference counts while this says the process has one
 * thread; 0 (never claimed) always counts atomically, as before glibc 2.32. */
HIDDEN char __libc_single_threaded = 0;

/* std::random_device's sources (glibc 2.25 and 2.36). */
HIDDEN int getentropy(void *buffer, size_t length) {
  if (length > 256) {
    errno = EIO;
    return -1;
  }
  unsigned char *p = buffer;
  while (length > 0) {
    long n = syscall(SYS_getrandom, p, length, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += n;
    length -= (size_t)n;
  }
  return 0;
}

HIDDEN uint32_t arc4random(void) {
  uint32_t value;
  while (getentropy(&value, sizeof value) != 0) {
  }
  return value;
}
