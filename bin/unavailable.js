// Saying why there is no usable GPU, the same way in every command.
'use strict';

/** A one-line reason from driverStatus(): `library-missing: libcuda.so.1: cannot open ...`. */
function unavailableReason(status) {
  const why = status.stage === 'init-failed' && status.initResult ? status.initResult.name : status.detail;
  return `${status.stage}${why ? `: ${why}` : ''}`;
}

/** True for the error the package throws at the first call that needs a driver it cannot use. */
function isDriverUnavailable(error, cuda) {
  return (cuda && error instanceof cuda.DriverUnavailableError) || (error && error.constructor && error.constructor.name === 'DriverUnavailableError');
}

module.exports = { unavailableReason, isDriverUnavailable };
