// What every example does first: on a machine without a usable GPU it says why
// in one line and exits 0 (a sentence, not a stack trace).
'use strict';

/**
 * Exits 0 with the reason when cuda has no usable driver or device; `doing`
 * says what is skipped ("nothing to share").
 */
function requireGpu(cuda, doing = 'nothing to run') {
  const status = cuda.driverStatus();
  if (!status.available || cuda.Device.count() === 0) {
    console.log(`no usable GPU here (${status.reason || 'no device'}); ${doing}`);
    process.exit(0);
  }
}

module.exports = { requireGpu };
