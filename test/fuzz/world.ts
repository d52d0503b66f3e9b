// The handles the fuzzer passes around: one live and one disposed object of
// every kind the environment can make (a stand-in driver makes fewer, no driver
// none), made once per run and disposed at its end.
import type * as Cuda from '../../lib';
import { Victims } from './hostile';

export type CudaModule = typeof Cuda;
export type Environment = 'none' | 'stand-in' | 'gpu';

/** The kernel every launch of the fuzzer runs: it takes (float*, int, double) and touches no memory. */
export const kernelSource = `
extern "C" __global__ void k(float* out, int n, double x) { (void)out; (void)n; (void)x; }
extern "C" __global__ void empty() {}
`;
/** The same for the stand-in driver (its image syntax: parameter sizes). */
export const standInImage = 'FAKE\nkernel k 8,4,8\nkernel empty\nglobal counter 4';

type Factory = () => unknown | Promise<unknown>;

export class World {
  readonly cuda: CudaModule;
  readonly env: Environment;
  deviceCount = 0;
  /** Kinds that could not be made here, and why. */
  readonly missing: Record<string, string> = {};
  readonly #live = new Map<string, unknown[]>();
  readonly #disposed = new Map<string, unknown[]>();
  readonly #fixtures = new Set<unknown>();
  readonly #factories = new Map<string, Factory>();
  readonly #cleanup: Array<() => void> = [];
  code: Uint8Array | string | undefined;
  /** The native addon, for the targets that call it directly. */
  readonly addon: Record<string, any> | undefined;
  readonly #limits = new Map<string, number>();
  /** True while a call is being made: hostile values act only then (test/fuzz/hostile.ts). */
  armed = false;
  #victims: Victims | undefined;

  constructor(cuda: CudaModule, env: Environment, addon?: object) {
    this.cuda = cuda;
    this.env = env;
    this.addon = addon as Record<string, any> | undefined;
  }

  allLive(): unknown[] {
    return [...this.#live.values()].flat();
  }

  allDisposed(): unknown[] {
    return [...this.#disposed.values()].flat();
  }

  /** The current call's victims, made for it. */
  victims(): Victims {
    return (this.#victims ??= new Victims(this));
  }

  /** Releases the current call's victims; the next call gets new ones. */
  releaseVictims(): void {
    this.#victims?.release();
    this.#victims = undefined;
  }

  /** Runs fn when the world is disposed. */
  onDispose(fn: () => void): void {
    this.#cleanup.push(fn);
  }

  /** Puts back the context limits as they were when the world was built. */
  restoreLimits(): void {
    const ctx = this.live('primaryContext')[0] as Cuda.Context | undefined;
    for (const [name, value] of this.#limits) {
      try {
        ctx?.setLimit(name as never, value);
      } catch {
        // as far as the driver lets us
      }
    }
  }

  /**
   * Undoes what raw calls into the addon may have changed for later calls:
   * captures left open on the fixtures' streams, the thread's capture mode,
   * the device's current pool, the primary context's flags and limits.
   */
  restoreNative(): void {
    const addon = this.addon;
    if (!addon || this.deviceCount === 0) return;
    const attempt = (f: () => void) => {
      try {
        f();
      } catch {
        // best effort
      }
    };
    for (const s of this.live('stream') as Cuda.Stream[]) {
      attempt(() => {
        if (addon.captureStatus(s.slot) === 0) return;
        const graph = addon.endCapture(s.slot, undefined);
        if (graph !== undefined) addon.disposeHandle(graph);
      });
    }
    attempt(() => addon.exchangeCaptureMode(0));
    attempt(() => addon.setDevicePool(0, addon.devicePool(0, false)));
    attempt(() => addon.setPrimaryContextFlags(0, 0));
    this.restoreLimits();
  }

  live(kind: string): unknown[] {
    return this.#live.get(kind) ?? [];
  }

  disposed(kind: string): unknown[] {
    return this.#disposed.get(kind) ?? [];
  }

  /**
   * Live objects of classes other than those of kinds: wrong handles for a
   * parameter of those kinds. A GraphAllocation is memory the library takes
   * anywhere memory goes, but whose addresses have memory behind them only
   * while its graph runs: it is never passed where it would be used now.
   * An instance of a subclass is no wrong handle (the legacy stream is a Stream).
   */
  foreign(kinds: readonly string[]): unknown[] {
    const classes = [...new Set(kinds.flatMap((k) => this.live(k).concat(this.disposed(k))).map((o) => (o as object).constructor))];
    const out: unknown[] = [];
    for (const [kind, objects] of this.#live) {
      if (kinds.includes(kind) || kind === 'graphAllocation') continue;
      for (const o of objects) if (!classes.some((c) => o instanceof (c as new () => unknown))) out.push(o);
    }
    return out;
  }

  isFixture(value: unknown): boolean {
    return this.#fixtures.has(value);
  }

  /** A new object of a kind, for calls that consume one (dispose, destroy); the world disposes it at the end. */
  async fresh(kind: string): Promise<unknown> {
    const factory = this.#factories.get(kind);
    if (!factory) throw new Error(`no factory for ${kind}`);
    const object = await factory();
    this.#cleanup.push(() => release(object));
    return object;
  }

  hasFactory(kind: string): boolean {
    return this.#factories.has(kind) && !(kind in this.missing);
  }

  async #add(kind: string, factory: Factory, withDisposed = true): Promise<void> {
    try {
      const object = await factory();
      this.#live.set(kind, [object]);
      this.#fixtures.add(object);
      this.#factories.set(kind, factory);
      this.#cleanup.push(() => release(object));
    } catch (error) {
      this.missing[kind] = (error as Error).message?.split('\n')[0] ?? String(error);
      return;
    }
    if (!withDisposed) return;
    try {
      const gone = (await factory()) as { dispose?: () => void };
      if (typeof gone?.dispose !== 'function') return;
      gone.dispose();
      this.#disposed.set(kind, [gone]);
    } catch {
      // a second one could not be made; the live one is enough
    }
  }

  /** Makes every fixture the environment allows. */
  async build(): Promise<void> {
    const c = this.cuda;
    await this.#add('kernelArg', () => c.arg.f32(1.5), false);
    await this.#add('resourceRange', () => new c.ResourceRange({}, 0, 16), false);
    await this.#add('dataflowTracker', () => new c.DataflowTracker(), false);
    if (this.env === 'none') return;
    try {
      this.deviceCount = c.Device.count();
    } catch (error) {
      this.missing.device = (error as Error).message;
      return;
    }
    const device = c.Device.get(0);
    await this.#add('device', () => device, false);
    await this.#add('primaryContext', () => device.primaryContext);
    const primary = this.live('primaryContext')[0] as Cuda.Context | undefined;
    for (const name of Object.keys(c.ContextLimit)) {
      try {
        this.#limits.set(name, primary!.limit(name as never));
      } catch {
        // a limit this device lacks
      }
    }
    await this.#add('context', () => device.createContext());
    await this.#add('stream', () => c.Stream.create());
    await this.#add('legacyStream', () => c.Stream.legacy(), false);
    await this.#add('event', () => c.Event.create());
    await this.#add('timingEvent', () => c.Event.create({ timing: true }));
    await this.#add('deviceBuffer', () => c.DeviceBuffer.alloc(4096));
    await this.#add('smallBuffer', () => c.DeviceBuffer.alloc(16));
    await this.#add('pitchedBuffer', () => c.DeviceBuffer.allocPitched(64, 4));
    await this.#add('managedBuffer', () => c.DeviceBuffer.allocManaged(4096));
    const stream = this.live('stream')[0] as Cuda.Stream | undefined;
    await this.#add('asyncBuffer', () => c.DeviceBuffer.allocAsync(4096, stream!));
    await this.#add('hostBuffer', () => c.HostBuffer.alloc(4096));
    await this.#add('registeredBuffer', () => c.HostBuffer.register(new ArrayBuffer(8192)));
    await this.#add('pool', () => c.MemoryPool.create());
    await this.#add('graph', () => {
      const graph = c.Graph.create();
      graph.addEmpty();
      return graph;
    });
    const graph = this.live('graph')[0] as Cuda.Graph | undefined;
    await this.#add('node', () => graph!.addEmpty());
    await this.#add('exec', () => graph!.instantiate());
    // Nodes are added to a graph of their own, pruned back now and then (see pruneBuilder).
    await this.#add('builderGraph', () => c.Graph.create());
    const builder = this.live('builderGraph')[0] as Cuda.Graph | undefined;
    await this.#add('builderNode', () => builder!.addEmpty());
    await this.#add('graphAllocation', () => c.Graph.create().addAlloc(4096).allocation);
    await this.#add('conditionalHandle', () => c.Graph.create().conditionalHandle());
    await this.#add('userObject', () => c.UserObject.create(() => undefined));
    if (this.env === 'stand-in') this.code = standInImage;
    else await this.#add('compiledProgram', () => c.compile(kernelSource, { name: 'fuzz.cu' }), false);
    this.code ??= (this.live('compiledProgram')[0] as Cuda.CompiledProgram | undefined)?.code;
    await this.#add('library', () => c.Library.load(this.code!));
    await this.#add('module', () => c.Module.load(this.code!));
    const library = this.live('library')[0] as Cuda.Library | undefined;
    const module = this.live('module')[0] as Cuda.Module | undefined;
    await this.#add('kernel', () => library!.kernel('k'));
    await this.#add('emptyKernel', () => library!.kernel('empty'));
    await this.#add('moduleKernel', () => module!.function('k'));
    const kernel = this.live('kernel')[0] as Cuda.Kernel | undefined;
    const buffer = this.live('deviceBuffer')[0] as Cuda.DeviceBuffer | undefined;
    await this.#add('preparedLaunch', () => kernel!.prepare({ grid: 1, block: 1, stream: stream! }, ['ptr', 'i32', 'f64'], [buffer!, 1, 2]));
    const granularity = (() => {
      try {
        return c.allocationGranularity();
      } catch {
        return 2 << 20;
      }
    })();
    await this.#add('physicalAllocation', () => c.PhysicalAllocation.create(granularity, { handleTypes: ['posixFileDescriptor'] }));
    await this.#add('reservation', () => c.AddressReservation.reserve(2 * granularity));
    await this.#add('mapping', () => c.Mapping.alloc(granularity, { handleTypes: ['posixFileDescriptor'] }));
    await this.#add('growable', () => c.GrowableBuffer.create({ maxSize: 4 * granularity, size: granularity }));
    await this.#add('memoryExport', () => c.shareMemory(this.live('mapping')[0] as Cuda.Mapping));
    const exported = this.live('memoryExport')[0] as Cuda.MemoryExport | undefined;
    await this.#add('sharedMemory', () => c.openSharedMemory(exported!.descriptor));
    const allocation = this.live('physicalAllocation')[0] as Cuda.PhysicalAllocation | undefined;
    await this.#add('ownedFd', () => allocation!.exportFd());
    await this.#add('fdServer', () => c.FdChannelServer.listen());
    const server = this.live('fdServer')[0] as Cuda.FdChannelServer | undefined;
    await this.#add('fdChannel', async () => {
      const accepted = server!.accept({ timeoutMs: 5000 });
      const near = await c.FdChannel.connect(server!.address, { timeoutMs: 5000 });
      this.#cleanup.push(() => near.dispose());
      return accepted;
    });
    await stream?.synchronize();
  }

  /** Destroys the nodes calls added to the builder graph once there are many. */
  pruneBuilder(limit = 64): void {
    const builder = this.live('builderGraph')[0] as Cuda.Graph | undefined;
    if (!builder || builder.disposed || builder.nodeCount <= limit) return;
    const keep = new Set(this.live('builderNode'));
    for (const node of builder.nodes()) {
      if (keep.has(node)) continue;
      try {
        node.destroy();
      } catch {
        // a node another one depends on goes with the graph
      }
    }
  }

  /** Disposes every fixture and everything made for the run. */
  dispose(): void {
    this.releaseVictims();
    // The legacy stream lives on: like any user, wait for it, or what its work used is kept.
    try {
      if (this.deviceCount > 0) this.cuda.Stream.legacy().synchronizeSync();
    } catch {
      // nothing to wait for
    }
    for (const step of this.#cleanup.reverse()) step();
    this.#cleanup.length = 0;
  }
}

/**
 * Disposes what a call returned, two levels deep; never a fixture it handed
 * back, nor a graph node (its graph owns it; the wrapper is the node's one
 * identity, which graph.nodes() hands out again).
 */
export function release(value: unknown, world?: World, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > 2) return;
  if (world?.isFixture(value) || value.constructor?.name === 'GraphNode') return;
  const disposable = value as { dispose?: unknown; [Symbol.dispose]?: unknown };
  const dispose = disposable.dispose ?? disposable[Symbol.dispose];
  if (typeof dispose === 'function') {
    try {
      (dispose as () => void).call(value);
    } catch {
      // a dispose that throws is the caller's to see elsewhere
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) release(v, world, depth + 1);
    return;
  }
  if (Object.getPrototypeOf(value) === Object.prototype) {
    for (const v of Object.values(value)) release(v, world, depth + 1);
  }
}
