// Runs the fuzzer: every target with seeded fast-check arguments, checking each
// outcome. A call given a refused value must throw; every throw must be one of
// the library's errors (TypeError, RangeError, CudaError, DisposedError and the
// other classes it exports, or a plain Error that names a state the call is
// refused in). A crash ends the process: the parent test sees it.
import fc from 'fast-check';
import { nativeTargets } from './native-targets';
import { publicTargets, Target } from './targets';
import { Arg, argument, describe, Validity } from './values';
import { CudaModule, Environment, release, World } from './world';

export interface FuzzOptions {
  env: Environment;
  /** Property runs per target (a target's weight scales it). */
  runs: number;
  seed: number;
  /** Stop starting new targets after this long (ms). */
  timeLimitMs: number;
  /** Only targets whose name contains this. */
  only?: string;
  /** Called before each call with its description (a trace to find what crashed). */
  trace?: (line: string) => void;
}

export interface Violation {
  target: string;
  kind: 'silent-success' | 'unexpected-error' | 'hang' | 'unhandled-rejection';
  detail: string;
}

export interface FuzzReport {
  env: Environment;
  seed: number;
  calls: number;
  targets: number;
  /** Calls per outcome: ok, TypeError, RangeError, CudaError names, DisposedError, ... */
  outcomes: Record<string, number>;
  /** The first call of each outcome. */
  examples: Record<string, string>;
  /** TypeErrors JavaScript itself raised inside the library (an argument not checked before use). */
  unchecked: Record<string, string>;
  violations: Violation[];
  missingFixtures: Record<string, string>;
  skippedTargets: string[];
  elapsedMs: number;
}

// Plain Errors that name a state a call is refused in (native/ and lib/ throw these).
const stateErrors = [
  /already capturing/, /is not capturing/, /capture has already ended/, /still used by live handles/, /belongs to a module of another context/,
  /cannot be queried in another/, /already in progress on this FdChannel/, /was already added to this tracker/, /was compiled to/,
  /environment is shutting down/, /legacy default stream cannot be captured/, /stream callbacks cannot be captured/,
  /a capture this library did not begin/, /host callback the GPU waits for/, /it is the graph's to free/,
];
// Messages of TypeErrors JavaScript raises itself (not the library's own checks).
const engineTypeErrors = /Cannot read propert|is not a function|is not iterable|Cannot convert|Cannot mix BigInt|is not a constructor|Cannot destructure|private member|called on incompatible|Do not know how to serialize|object null is not|Cannot create property|Invalid typed array length|Cannot use 'in' operator/;

function chainNames(error: object): string[] {
  const out: string[] = [];
  for (let p = Object.getPrototypeOf(error); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) out.push(p.constructor?.name);
  return out;
}

/** The outcome class of a thrown value, or undefined when it is not one the library may throw. */
export function classify(error: unknown, cuda: CudaModule): { outcome: string; unchecked?: boolean } | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  if (error instanceof cuda.CudaError) return { outcome: `${error.constructor.name}:${error.code}` };
  if (error instanceof cuda.DisposedError) return { outcome: 'DisposedError' };
  const libraryClasses = [cuda.KernelArgumentError, cuda.InvalidDescriptorError, cuda.SharingUnsupportedError, cuda.GraphCycleError,
    cuda.CompileError, cuda.NvrtcUnavailableError, cuda.SystemError, cuda.TimeoutError, cuda.ChannelClosedError, cuda.ChannelProtocolError,
    // A blocking wait refused while a host callback the GPU waits for has not run yet (a waiting one an earlier target queued).
    cuda.HostCallbackPendingError];
  for (const C of libraryClasses) if (error instanceof C) return { outcome: C.name };
  const names = chainNames(error);
  const message = String((error as Error).message);
  if (names.includes('TypeError')) return engineTypeErrors.test(message) ? { outcome: 'TypeError(engine)', unchecked: true } : { outcome: 'TypeError' };
  if (names.includes('RangeError')) return { outcome: /Maximum call stack|Invalid array length|Array buffer allocation failed/.test(message) ? 'RangeError(engine)' : 'RangeError' };
  if (names[0] === 'Error' && stateErrors.some((re) => re.test(message))) return { outcome: 'Error(state)' };
  return undefined;
}

const isThenable = (v: unknown): v is PromiseLike<unknown> => v !== null && typeof v === 'object' && typeof (v as { then?: unknown }).then === 'function';

async function settle(value: unknown, ms: number): Promise<{ value?: unknown; error?: unknown; hung?: boolean }> {
  if (!isThenable(value)) return { value };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ hung: boolean }>((resolve) => (timer = setTimeout(() => resolve({ hung: true }), ms)));
  try {
    return await Promise.race([Promise.resolve(value).then((v) => ({ value: v }), (error) => ({ error })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Combines per-argument arbitraries into whole calls: all accepted, one refused, or several refused. */
function callArbitrary(target: Target, world: World): fc.Arbitrary<Arg[]> {
  return target.arbitrary ? target.arbitrary() : fc.tuple(...target.params.map((p) => argument(p, world)));
}

export async function runFuzz(cuda: CudaModule, options: FuzzOptions, addon?: object): Promise<FuzzReport> {
  const started = Date.now();
  const world = new World(cuda, options.env, addon);
  await world.build();
  const report: FuzzReport = {
    env: options.env, seed: options.seed, calls: 0, targets: 0, outcomes: {}, examples: {}, unchecked: {}, violations: [],
    missingFixtures: world.missing, skippedTargets: [], elapsedMs: 0,
  };
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  let current = '';
  const count = (outcome: string) => {
    report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1;
    report.examples[outcome] ??= current;
  };

  const all = [...publicTargets(world), ...nativeTargets(world)].filter((t) => !options.only || t.name.includes(options.only));
  try {
    for (const [index, target] of all.entries()) {
      if (Date.now() - started > options.timeLimitMs) {
        report.skippedTargets.push(...all.slice(index).map((t) => t.name));
        break;
      }
      report.targets++;
      const runs = Math.max(1, Math.round(options.runs * (target.weight ?? 1)));
      let failure: Violation | undefined;
      const property = fc.asyncProperty(callArbitrary(target, world), async (args) => {
        const values = args.map((a) => a.value);
        // A method called on another object does that object's work: nothing is claimed then.
        const onOther = target.params[0]?.kind === 'self' && args[0].validity === 'unknown';
        const validity: Validity = onOther ? 'unknown' : args.some((a) => a.validity === 'invalid') ? 'invalid'
          : args.some((a) => a.validity === 'unknown') ? 'unknown' : 'valid';
        let expectation = validity;
        if (validity === 'valid' && target.relation) {
          try {
            expectation = target.relation(...values);
          } catch {
            expectation = 'unknown';
          }
        }
        const text = () => `${target.name}(${values.map((v) => describe(v)).join(', ')})`;
        current = text();
        options.trace?.(current);
        report.calls++;
        let outcome: { value?: unknown; error?: unknown; hung?: boolean };
        try {
          world.armed = true;
          const result = target.call(...values);
          world.armed = false;
          outcome = await settle(result, 5000);
        } catch (error) {
          outcome = { error };
        } finally {
          world.armed = false;
          try {
            target.after?.();
          } catch {
            // restoring is best effort
          }
          world.releaseVictims();
        }
        if (outcome.hung) {
          failure = { target: target.name, kind: 'hang', detail: `${text()} did not settle in 5 s` };
          count('hang');
          return false;
        }
        if (!('error' in outcome)) {
          release(outcome.value, world);
          count('ok');
          if (expectation === 'invalid') {
            failure = { target: target.name, kind: 'silent-success', detail: `${text()} succeeded, but its arguments are not acceptable` };
            return false;
          }
          return true;
        }
        let kind = classify(outcome.error, cuda);
        // node-addon-api unwraps `this` before the method runs: something that is
        // no wrapped object gets its plain Error (a limit of node-addon-api, not a crash).
        if (!kind && target.name.startsWith('native ') && args[0]?.validity === 'invalid' && /^(Invalid argument|An object was expected)$/.test((outcome.error as Error)?.message)) {
          kind = { outcome: 'Error(node-addon-api this)' };
        }
        if (!kind) {
          const e = outcome.error as Error;
          failure = { target: target.name, kind: 'unexpected-error', detail: `${text()} threw ${e?.constructor?.name}: ${e?.message ?? String(e)}` };
          count('unexpected');
          return false;
        }
        count(kind.outcome);
        // An engine TypeError is expected from a method called on something else; elsewhere it is an argument used unchecked.
        const onOtherObject = target.params[0]?.kind === 'self' && args[0].validity !== 'valid';
        if (kind.unchecked && !onOtherObject) report.unchecked[target.name] ??= `${text()}: ${(outcome.error as Error).message}`;
        return true;
      });
      try {
        await fc.assert(property, { seed: options.seed, numRuns: runs, endOnFailure: false, interruptAfterTimeLimit: 60000, markInterruptAsFailure: false });
      } catch (error) {
        const message = String((error as Error).message).split('\n').slice(0, 3).join(' ');
        report.violations.push(failure ? { ...failure, detail: `${failure.detail} [${message}]` }
          : { target: target.name, kind: 'unexpected-error', detail: message });
      }
      // Let deferred work (promises, host callbacks, finalizers) run between targets.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    world.dispose();
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.off('unhandledRejection', onRejection);
  }
  for (const reason of rejections) {
    if (!classify(reason, cuda)) {
      report.violations.push({ target: '(unhandled rejection)', kind: 'unhandled-rejection', detail: String((reason as Error)?.stack ?? reason) });
    }
  }
  report.elapsedMs = Date.now() - started;
  return report;
}
