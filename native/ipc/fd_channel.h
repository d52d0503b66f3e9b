// Passing file descriptors between processes over Unix domain sockets. Node's
// child_process can pass only sockets as handles, and pidfd_getfd is refused in
// many containers; the IPC layer moves the descriptors that
// cuMemExportToShareableHandle and cuMemPoolExportToShareableHandle make through
// this instead. No CUDA here.
//
// A message is a payload of at most kMaxPayloadBytes plus at most kMaxFds
// descriptors, sent with one SCM_RIGHTS sendmsg on a SOCK_STREAM socket: a
// 12-byte header {magic, payload bytes, descriptor count}, then the payload; the
// descriptors ride on the header. A stream may carry a message in pieces, so
// both sides loop until it is whole; a message cut off midway (a timeout, a
// dispose, a peer that died) leaves the stream unframeable, so the channel is
// then shut down. A receiver holds no more descriptors than the message
// announced (at most kMaxFds before its header is in): one more fails the
// message at once and closes them all. Every socket and received descriptor
// is close-on-exec; every socket is non-blocking and all waiting happens in
// poll() on a wait thread (core/wait_thread.h), with a deadline. A received descriptor belongs to a
// ReceivedFd handle, which closes it unless receivedFdTake hands it over.
#pragma once

#include <napi.h>

namespace cudrv {

// A ReceivedFd handle owning fd, a descriptor this process made (a driver
// export, made close-on-exec by makeDriverFd): closed when disposed unless taken.
Napi::Value newOwnedFdSlot(Napi::Env env, int fd);

}  // namespace cudrv
