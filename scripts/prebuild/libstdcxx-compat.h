// Included first in every C++ file of the shipped binaries (CUDA_DRIVER_PORTABLE).
// GCC 12's libstdc++ was configured on a glibc that has the clock-selecting
// pthread waits; the glibc 2.17 sysroot has not, so the headers take their
// older paths instead.
#include <bits/c++config.h>
#undef _GLIBCXX_USE_PTHREAD_COND_CLOCKWAIT
#undef _GLIBCXX_USE_PTHREAD_MUTEX_CLOCKLOCK
#undef _GLIBCXX_USE_PTHREAD_RWLOCK_CLOCKLOCK
