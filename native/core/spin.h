// Spinning briefly on a condition another thread will make true, where a
// sleep and its wake-up would cost more than the wait.
#pragma once

#include <chrono>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace cudrv {

// One step of a spin: lets the core's other hardware thread run.
inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

// Spins until ready() or for `limit`; returns ready()'s last answer.
template <typename Ready>
bool spinUntil(Ready ready, std::chrono::nanoseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!ready()) {
    if (std::chrono::steady_clock::now() >= until) return ready();
    relax();
  }
  return true;
}

}  // namespace cudrv
