// What a POSIX file descriptor must be before an import hands it to the driver
// (cuMemImportFromShareableHandle, cuMemPoolImportFromShareableHandle). The
// driver's exports are opens of its control device (/dev/nvidiactl, character
// device 195:255 in NVIDIA's kernel module), read-write; the driver refuses any
// other file only with CUDA_ERROR_UNKNOWN. Descriptors arrive from other
// processes, so what is plainly not an export (a regular file, /dev/zero, a
// pipe, a socket) is refused here, with a message that says what it is. An
// open of the control device that carries no export still reaches the driver,
// which refuses it: telling the two apart would take the driver's own ioctl.
//
// CUDA_DRIVER_SHAREABLE_FD_DEVICE=major:minor names another device, for a
// driver whose exports are opens of something else (a stand-in driver).
#pragma once

#include <napi.h>

namespace cudrv {

// The descriptor number value holds, once checked to be one the driver's exports
// could have made: a TypeError naming what it is otherwise, a SystemError
// (EBADF) when it is not open. name is the parameter's name.
int shareableFdArg(Napi::Value value, const char* name);

}  // namespace cudrv
