// Descriptors the driver makes (cuMemExportToShareableHandle,
// cuMemPoolExportToShareableHandle, cuMemGetHandleForAddressRange) must not
// reach child processes: an exported descriptor keeps its memory reachable.
// The driver makes some without close-on-exec (pool exports, with driver 580),
// and it makes them itself, so no flag can be passed. Instead fork() is held
// off in every thread (a pthread_atfork handler waits on a lock) from before
// the driver call until close-on-exec is set. Node's child_process forks
// through libuv on Linux, in whatever thread spawns, so it waits too. The
// handler is registered at the first export, after the driver has loaded, so
// it runs before any fork handler the driver registered: a fork waits before
// it takes any lock the driver call might need. What
// starts a process without fork() (posix_spawn, vfork or clone called
// directly, as some native code does) is not held off, and a child it starts
// during the call may inherit the descriptor.
#pragma once

#include <cuda.h>

namespace cudrv {

// While one lives, fork() in any other thread waits.
class ForkHold {
 public:
  ForkHold();
  ~ForkHold();
  ForkHold(const ForkHold&) = delete;
  ForkHold& operator=(const ForkHold&) = delete;
};

// Marks fd close-on-exec.
void setCloseOnExec(int fd);

// Runs call, a driver call that stores a new descriptor in *fd, with fork()
// held off, and marks the descriptor close-on-exec before fork() may go on.
template <typename Call>
CUresult makeDriverFd(int* fd, Call call) {
  ForkHold hold;
  CUresult result = call();
  if (result == CUDA_SUCCESS) setCloseOnExec(*fd);
  return result;
}

}  // namespace cudrv
