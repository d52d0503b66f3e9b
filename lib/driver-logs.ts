// The driver's own log buffer (cuLogsCurrent, cuLogsDumpToMemory,
// cuLogsDumpToFile), CUDA 12.9 and newer: the lines it wrote for refused calls,
// kept by the driver (about 25 KB, oldest lines overwritten). Errors already
// carry the lines of their own call (CudaError.driverLog); this reads the rest.
import { native } from './native';
import { checkCString, checkInteger, checkObject, checkOptions, noOptions } from './validate';

/** A position in the driver's log, from {@link driverLogs}.current(). */
export type DriverLogMarker = number;

/** Options of driverLogs.dump and driverLogs.dumpToFile. */
export interface DriverLogDumpOptions {
  /** Only the lines logged after this marker (default: all the driver keeps). */
  since?: DriverLogMarker;
}

function sinceOf(options: DriverLogDumpOptions, method: string): number | undefined {
  checkObject(options, 'options');
  checkOptions(options, 'options', method, ['since']);
  return options.since === undefined ? undefined : checkInteger(options.since, 'options.since', 0, 0xffffffff);
}

/**
 * The driver's log buffer. A FunctionUnavailableError where the driver is
 * older than CUDA 12.9.
 */
export const driverLogs = {
  /** The position the next line will take: pass it as `since` to read only what comes after. */
  current(): DriverLogMarker {
    return native.driverLogCurrent();
  },
  /** The lines as text, one per line ('' when there are none). */
  dump(options: DriverLogDumpOptions = noOptions): string {
    return native.driverLogDump(sinceOf(options, 'driverLogs.dump'));
  },
  /** Writes the lines to a file (the driver writes it). */
  dumpToFile(path: string, options: DriverLogDumpOptions = noOptions): void {
    native.driverLogDumpToFile(sinceOf(options, 'driverLogs.dumpToFile'), checkCString(path, 'path'));
  },
};
