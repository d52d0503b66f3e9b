// Finds and loads the compiled addon: a local build (build/Release) first, then
// the binary shipped for this platform (prebuilds/<platform>-<arch>), the order of
// node-gyp-build. When neither loads, importing still works: every native entry
// throws an AddonUnavailableError that says what was looked for and what to do,
// and driverStatus() reports the stage 'addon-missing'.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CudaUnavailableError } from './unavailable-error';

// node-gyp-build ships no types: it is one function from a package folder to the addon's exports.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodeGypBuild: (dir: string) => unknown = require('node-gyp-build');

const packageRoot = path.resolve(__dirname, '..');

/** The C library of this process, as "glibc 2.36", "musl" or "unknown". */
function libcOf(): string {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  if (header?.glibcVersionRuntime) return `glibc ${header.glibcVersionRuntime}`;
  return fs.existsSync('/etc/alpine-release') ? 'musl' : 'unknown';
}

/** Why the addon could not be loaded, in a form that says what to do. */
export interface AddonFailure {
  /** The platform, architecture and C library found, e.g. `linux-x64, glibc 2.36`. */
  readonly platform: string;
  /** The places searched, in order. */
  readonly searched: readonly string[];
  /** The loader's or the system's own words. */
  readonly cause: string;
  /** The whole explanation, with what to do. */
  readonly message: string;
}

function describeFailure(error: unknown): AddonFailure {
  const platform = `${os.platform()}-${os.arch()}, ${libcOf()}`;
  const searched = [path.join(packageRoot, 'build', 'Release'), path.join(packageRoot, 'prebuilds', `${os.platform()}-${os.arch()}`)];
  const cause = (error instanceof Error ? error.message : String(error)).trim().split('\n')[0];
  const shipped = os.platform() === 'linux' && (os.arch() === 'x64' || os.arch() === 'arm64') && !libcOf().startsWith('musl');
  const remedy = shipped
    ? 'The package ships a binary for this platform: reinstall it (npm ci, or npm install cuda-driver), ' +
      'and if it still fails, build from source with `npm rebuild cuda-driver --build-from-source` ' +
      '(needs cmake or node-gyp, a C++17 compiler and the CUDA 13 headers).'
    : 'No binary ships for this platform; build from source with `npm rebuild cuda-driver --build-from-source` ' +
      '(needs node-addon-api, cmake or node-gyp, a C++17 compiler and the CUDA 13 headers; glibc Linux only).';
  const message = `cuda-driver: the native addon could not be loaded on ${platform}: ${cause}. ` +
    `Looked in ${searched.join(' and ')}. ${remedy}`;
  return { platform, searched, cause, message };
}

/** The addon's exports, or why there are none. */
export function loadAddon(): { exports: Record<string, unknown> } | { failure: AddonFailure } {
  try {
    return { exports: nodeGypBuild(packageRoot) as Record<string, unknown> };
  } catch (error) {
    return { failure: describeFailure(error) };
  }
}

/** The native addon is missing or does not load here: see the message for what was searched and what to do. */
export class AddonUnavailableError extends CudaUnavailableError {
  /** 'ERR_CUDA_ADDON_UNAVAILABLE'. */
  readonly code = 'ERR_CUDA_ADDON_UNAVAILABLE';
  /** 'addon-unavailable'. */
  readonly reason = 'addon-unavailable';
  /** The platform, architecture and C library found, e.g. `linux-x64, glibc 2.36`. */
  readonly platform: string;
  /** The places searched for the binary, in order. */
  readonly searched: readonly string[];
  /** The native entry that was called. */
  readonly call: string;
  constructor(failure: AddonFailure, call: string) {
    super(failure.message);
    this.name = 'AddonUnavailableError';
    this.platform = failure.platform;
    this.searched = failure.searched;
    this.call = call;
  }
}

/**
 * What lib/ gets in place of the addon when it does not load: the few values read
 * while the package is imported, a driverStatus that says why, and for every other
 * entry a function that throws AddonUnavailableError.
 */
export function addonStandIn(failure: AddonFailure): Record<string, unknown> {
  const values: Record<string, unknown> = {
    headerVersion: 0,
    fdChannelLimits: { maxPayloadBytes: 0, maxFds: 0, maxAddressBytes: 0 },
    setErrorFactory: () => undefined,
    markMainThread: () => false,
    // The queue of handle adoptions (lib/disposable.ts): no handle is ever made without the addon.
    handleQueue: () => new Float64Array(1),
    driverStatus: () => ({
      stage: 'addon-missing', libraryPath: '', detail: failure.message,
      initResult: 0, initResultName: '', driverVersion: 0, headerVersion: 0,
    }),
  };
  return new Proxy(values, {
    get(target, name) {
      if (typeof name !== 'string' || name in target) return target[name as string];
      return () => {
        throw new AddonUnavailableError(failure, name);
      };
    },
  });
}
