#include "ipc/shareable_fd.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/args.h"
#include "core/errors.h"

namespace cudrv {

namespace {

// NVIDIA's control device: NV_MAJOR_DEVICE_NUMBER and NV_CONTROL_DEVICE_MINOR.
constexpr unsigned kNvidiaMajor = 195;
constexpr unsigned kNvidiaControlMinor = 255;

dev_t exportDevice() {
  static const dev_t device = [] {
    unsigned major = kNvidiaMajor, minor = kNvidiaControlMinor;
    if (const char* configured = std::getenv("CUDA_DRIVER_SHAREABLE_FD_DEVICE")) {
      unsigned a = 0, b = 0;
      char end = 0;
      if (std::sscanf(configured, "%u:%u%c", &a, &b, &end) == 2) {
        major = a;
        minor = b;
      }
    }
    return makedev(major, minor);
  }();
  return device;
}

std::string deviceName(dev_t device) {
  return std::to_string(major(device)) + ":" + std::to_string(minor(device));
}

// What a file is, for the message; empty when it looks like an export.
std::string whatItIs(const struct stat& st, int statusFlags) {
  switch (st.st_mode & S_IFMT) {
    case S_IFREG: return "a regular file";
    case S_IFDIR: return "a directory";
    case S_IFIFO: return "a pipe";
    case S_IFSOCK: return "a socket";
    case S_IFLNK: return "a symbolic link";
    case S_IFBLK: return "a block device " + deviceName(st.st_rdev);
    case S_IFCHR: break;
    default: return "an anonymous inode, such as an eventfd";
  }
  if (st.st_rdev != exportDevice()) return "a character device " + deviceName(st.st_rdev);
  if (statusFlags & O_PATH) return "an O_PATH descriptor of the control device";
  if ((statusFlags & O_ACCMODE) != O_RDWR) return "an open of the control device that is not read-write";
  return {};
}

}  // namespace

int shareableFdArg(Napi::Value value, const char* name) {
  Napi::Env env = value.Env();
  int fd = static_cast<int>(integerArg(value, name, 0, 0x7fffffff));
  std::string detail = std::string(name) + "=" + std::to_string(fd);
  struct stat st;
  if (fstat(fd, &st) != 0) throwSystemError(env, errno, "fstat", detail);
  int statusFlags = fcntl(fd, F_GETFL);
  if (statusFlags < 0) throwSystemError(env, errno, "fcntl(F_GETFL)", detail);
  std::string what = whatItIs(st, statusFlags);
  if (!what.empty()) {
    throwTypeError(env, detail + ": this file descriptor is not a CUDA shareable handle (it is " + what +
                            "; the driver exports read-write opens of its control device, " +
                            deviceName(exportDevice()) + ")");
  }
  return fd;
}

}  // namespace cudrv
