#include "ipc/driver_fd.h"

#include <fcntl.h>
#include <pthread.h>

#include <mutex>

namespace cudrv {

namespace {

pthread_mutex_t forkLock = PTHREAD_MUTEX_INITIALIZER;
// This thread holds forkLock through a ForkHold (a fork from inside the driver
// call must not wait for itself).
thread_local bool holding = false;
// The prepare handler took forkLock for a fork on this thread.
thread_local bool heldForFork = false;

void prepareFork() {
  if (holding) return;
  pthread_mutex_lock(&forkLock);
  heldForFork = true;
}

void afterForkInParent() {
  if (!heldForFork) return;
  heldForFork = false;
  pthread_mutex_unlock(&forkLock);
}

// The child has only the forking thread: a lock it took for the fork starts over free.
void afterForkInChild() {
  if (!heldForFork) return;
  heldForFork = false;
  pthread_mutex_init(&forkLock, nullptr);
}

}  // namespace

ForkHold::ForkHold() {
  static std::once_flag registered;
  std::call_once(registered, [] { pthread_atfork(prepareFork, afterForkInParent, afterForkInChild); });
  pthread_mutex_lock(&forkLock);
  holding = true;
}

ForkHold::~ForkHold() {
  holding = false;
  pthread_mutex_unlock(&forkLock);
}

void setCloseOnExec(int fd) {
  int flags = fcntl(fd, F_GETFD);
  if (flags >= 0 && !(flags & FD_CLOEXEC)) fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

}  // namespace cudrv
