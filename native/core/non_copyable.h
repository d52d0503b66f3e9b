// What every box derives from: a box is shared, never copied (a copy would
// release its driver handle twice).
#pragma once

namespace cudrv {

struct NonCopyable {
  NonCopyable() = default;
  NonCopyable(const NonCopyable&) = delete;
  NonCopyable& operator=(const NonCopyable&) = delete;
};

}  // namespace cudrv
