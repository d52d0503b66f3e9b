// Recognising the package's "no usable driver" error in every command.
'use strict';

/** True for the error the package throws at the first call that needs a driver it cannot use. */
function isDriverUnavailable(error, cuda) {
  return (cuda && error instanceof cuda.DriverUnavailableError) || (error && error.constructor && error.constructor.name === 'DriverUnavailableError');
}

module.exports = { isDriverUnavailable };
