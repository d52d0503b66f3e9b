// The driver's own explanation of a failed call. Drivers for CUDA 12.9 and newer
// log a line for many refusals (cuLogsRegisterCallback); one callback, registered
// when the driver loads, keeps the recent lines in a small ring with the thread
// that logged them. Nothing is read on success: a failure takes the lines its
// own thread logged since that thread's previous failure.
#pragma once

#include <string>
#include <vector>

namespace cudrv {

using DriverLogLines = std::vector<std::string>;

// Registers the callback; a no-op where the driver lacks cuLogsRegisterCallback
// or refuses it. Called once, by the loader, after cuInit.
void startDriverLog();

// Unregisters it; run as the process exits. The ring itself stays, for a line
// being logged meanwhile.
void stopDriverLog();

// What the driver logged on the calling thread for its latest failed call,
// oldest line first: the lines since the last call of this on that thread (and
// not older than a few seconds), less those of earlier failed calls, whose
// lines the driver closes with "Returning <code> (<name>) from <function>".
// Empty when the driver logs nothing or cannot log.
DriverLogLines takeDriverLog();

}  // namespace cudrv
