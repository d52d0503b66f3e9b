// Hostile values: arguments whose reading runs code that disposes, destroys or
// detaches what the same call names, calls back into the API, or poses as
// what it is not. Each call gets its own victims (handles and buffers that
// nothing else uses, made on first use and released after the call), so that
// a getter can free what the call it is read in already holds. Getters act
// only while the world is armed (during the call itself): drawing and
// describing the values must not set them off.
import type * as Cuda from '../../lib';
import type { World } from './world';

const hostile = new WeakMap<object, string>();

/** What a hostile value is, for reports (undefined for any other value); reading it runs nothing. */
export function hostileLabel(value: unknown): string | undefined {
  return value !== null && (typeof value === 'object' || typeof value === 'function') ? hostile.get(value) : undefined;
}

function mark<T extends object>(value: T, label: string): T {
  hostile.set(value, label);
  return value;
}

// Resizable and growable buffers (ES2024), which this TypeScript's library does not type.
type Resizable = ArrayBuffer & { resize(bytes: number): void };
/** A resizable ArrayBuffer of bytes, growable to max. */
export const resizableBuffer = (bytes: number, max: number): Resizable =>
  new (ArrayBuffer as unknown as new (bytes: number, options: { maxByteLength: number }) => Resizable)(bytes, { maxByteLength: max });
const growableShared = (bytes: number, max: number): SharedArrayBuffer =>
  new (SharedArrayBuffer as unknown as new (bytes: number, options: { maxByteLength: number }) => SharedArrayBuffer)(bytes, { maxByteLength: max });

/** A value no part of the library may turn into a primitive: doing so throws an error that is none of the library's. */
export function coercionTrap(): object {
  return mark({ [Symbol.toPrimitive]: () => { throw new Error('a value was coerced instead of checked'); } }, 'toPrimitive that throws');
}

/** A view whose length shrank after it was made (a length-tracking view of a resizable ArrayBuffer). */
export function shrunkView(): Uint8Array {
  const buffer = resizableBuffer(64, 1 << 16);
  const view = new Uint8Array(buffer);
  buffer.resize(8);
  return view;
}

/** A view whose buffer has been transferred away (length 0, no memory). */
export function detachedView(): Uint8Array {
  const buffer = new ArrayBuffer(16);
  const view = new Uint8Array(buffer);
  structuredClone(buffer, { transfer: [buffer] });
  return view;
}

/** Views of shared memory, and a bare SharedArrayBuffer (fixed and growable). */
export function sharedBytes(): unknown[] {
  const growable = growableShared(16, 64);
  return [new Uint8Array(new SharedArrayBuffer(64)), new SharedArrayBuffer(32), new Int32Array(growable), new DataView(new SharedArrayBuffer(16))];
}

/** One call's victims. */
export class Victims {
  readonly #world: World;
  readonly #made: Array<{ dispose(): void }> = [];
  #stream?: Cuda.Stream;
  #buffer?: Cuda.DeviceBuffer;
  #hostBuffer?: Cuda.HostBuffer;
  #graph?: Cuda.Graph;
  #node?: Cuda.GraphNode;
  #event?: Cuda.Event;
  #pool?: Cuda.MemoryPool;
  #bytes?: Uint8Array;
  #resizable?: ReturnType<typeof resizableBuffer>;

  constructor(world: World) {
    this.#world = world;
  }

  #make<T extends { dispose(): void }>(make: () => T): T {
    const made = make();
    this.#made.push(made);
    return made;
  }

  get cuda(): typeof Cuda {
    return this.#world.cuda;
  }
  /** 1 MiB of JavaScript memory: large enough that its memory is unmapped when freed, and a write into it then crashes. */
  get bytes(): Uint8Array {
    return (this.#bytes ??= new Uint8Array(1 << 20));
  }
  get resizable(): ReturnType<typeof resizableBuffer> {
    return (this.#resizable ??= resizableBuffer(1 << 20, 1 << 21));
  }
  get stream(): Cuda.Stream {
    return (this.#stream ??= this.#make(() => this.cuda.Stream.create()));
  }
  get buffer(): Cuda.DeviceBuffer {
    return (this.#buffer ??= this.#make(() => this.cuda.DeviceBuffer.alloc(4096)));
  }
  get hostBuffer(): Cuda.HostBuffer {
    return (this.#hostBuffer ??= this.#make(() => this.cuda.HostBuffer.alloc(4096)));
  }
  get graph(): Cuda.Graph {
    return (this.#graph ??= this.#make(() => this.cuda.Graph.create()));
  }
  get node(): Cuda.GraphNode {
    return (this.#node ??= this.graph.addEmpty());
  }
  get event(): Cuda.Event {
    return (this.#event ??= this.#make(() => this.cuda.Event.create()));
  }
  get pool(): Cuda.MemoryPool {
    return (this.#pool ??= this.#make(() => this.cuda.MemoryPool.create()));
  }

  /**
   * What a hostile getter does: a call back into the API with the victims,
   * then every victim made so far disposed (the node destroyed), the bytes
   * detached and the resizable buffer shrunk.
   */
  attack(): void {
    const addon = this.#world.addon;
    const attempt = (f: () => void) => {
      try {
        f();
      } catch {
        // the victims may be gone already
      }
    };
    if (this.#buffer && this.#bytes) attempt(() => this.cuda.copy(this.#buffer!, this.#bytes!, { bytes: 16 }));
    if (this.#buffer && this.#bytes && addon) attempt(() => addon.memcpy(this.#bytes, 0, this.#buffer!.slot, 0, 16, undefined));
    if (this.#node) {
      attempt(() => this.#node!.destroy());
      if (addon) attempt(() => addon.disposeHandle(this.#node!.slot));
    }
    for (const made of this.#made) attempt(() => made.dispose());
    if (this.#bytes && this.#bytes.byteLength > 0) structuredClone(this.#bytes.buffer, { transfer: [this.#bytes.buffer as ArrayBuffer] });
    if (this.#resizable && this.#resizable.byteLength > 0) this.#resizable.resize(0);
    // What was detached or disposed goes now, so that a pointer taken before is one into freed memory.
    (globalThis as { gc?: () => void }).gc?.();
  }

  /** Releases what was made (after the call). */
  release(): void {
    for (const made of this.#made.splice(0)) {
      try {
        made.dispose();
      } catch {
        // released already
      }
    }
  }
}

/** Makes one hostile value around a call's victims. */
export type HostileMaker = (v: Victims) => unknown;

// Where plausible() puts memory: JavaScript bytes on the destination or the
// source side and the victim buffer on the other (a copy), or the victim buffer
// on both (what graph nodes take; their type is then an empty node's).
type Sides = 'bytes to device' | 'device to bytes' | 'device';

// Plausible values for a property, by its name: a getter that answers them
// gets a call further before it strikes.
function plausible(v: Victims, key: string, native: boolean, sides: Sides): unknown {
  const handle = <T extends { slot: number }>(h: T) => (native ? h.slot : h);
  if (/^(dst|src|target|memory|allocation|buffer)$/.test(key)) {
    const bytesSide = sides === 'device' ? '' : sides === 'bytes to device' ? 'src' : 'dst';
    return key === bytesSide ? v.bytes : handle(v.buffer);
  }
  if (key === 'stream') return handle(v.stream);
  if (key === 'graph') return handle(v.graph);
  if (key === 'event') return handle(v.event);
  if (key === 'pool') return handle(v.pool);
  if (key === 'node') return handle(v.node);
  if (key === 'type') return sides === 'device' ? 5 : 1;
  if (key === 'callback') return () => undefined;
  if (/^(ops|peers|after|dependencies)$/.test(key)) return [];
  if (/offset/i.test(key)) return 0;
  return 16;
}

/**
 * A record (a Proxy over a plain object) whose every property answers
 * plausibly, and whose read number `strike` sets off the attack.
 */
function strikingRecord(v: Victims, world: World, strike: number, native: boolean, sides: Sides): object {
  let reads = 0;
  const record = new Proxy({}, {
    get(_target, key) {
      if (typeof key !== 'string' || !world.armed) return undefined;
      if (reads++ === strike) v.attack();
      return plausible(v, key, native, sides);
    },
  });
  return mark(record, `record (${sides}) striking at read ${strike}`);
}

// The names native entries read from parameter objects (copies, node parameters, JIT options).
const recordKeys = ['type', 'dst', 'dstOffset', 'dstPitch', 'dstHeight', 'src', 'srcOffset', 'srcPitch', 'srcHeight', 'width', 'height',
  'depth', 'bytes', 'target', 'offset', 'value', 'elementBytes', 'pitch', 'graph', 'move', 'event', 'allocation', 'ordinal', 'kind',
  'size', 'handle', 'maxRegisters', 'optimizationLevel', 'node', 'stream'];

/**
 * A victim's slot number as a Number object that also answers a parameter
 * object's reads with getters, striking at read `strike` (and when turned into
 * a number). A handle is a plain number: where one is expected, this must be
 * refused without being coerced; where parameters are expected, it strikes at
 * the victims the same call names by their slots.
 */
function strikingSlot(v: Victims, world: World, slot: number, what: string, strike: number): object {
  let reads = 0;
  const boxed = new Number(slot);
  const strikeNow = () => {
    if (world.armed && reads++ === strike) v.attack();
  };
  for (const key of recordKeys) {
    Object.defineProperty(boxed, key, {
      configurable: true,
      enumerable: true,
      get() {
        if (!world.armed) return undefined;
        strikeNow();
        return plausible(v, key, true, 'device');
      },
    });
  }
  Object.defineProperty(boxed, 'valueOf', { value: () => { strikeNow(); return slot; } });
  return mark(boxed, `${what} slot as a Number striking at read ${strike}`);
}

/**
 * A batch list ([[...], ...]) whose elements are getters: entry elements
 * answer a memory slot, offsets and sizes in turn, and read number `strike`
 * sets off the attack.
 */
function strikingBatch(v: Victims, world: World, strike: number, entries: number): unknown[] {
  let reads = 0;
  const read = (value: () => unknown) => () => {
    if (world.armed && reads++ === strike) v.attack();
    return world.armed ? value() : undefined;
  };
  const list: unknown[] = [];
  for (let i = 0; i < entries; i++) {
    const entry: unknown[] = [];
    const elements: Array<() => unknown> = [() => v.buffer.slot, () => 0, () => v.buffer.slot, () => 8, () => 8, () => 1, () => v.buffer.slot,
      () => 0, () => 0];
    elements.forEach((value, j) => Object.defineProperty(entry, j, { get: read(value), enumerable: true }));
    Object.defineProperty(list, i, { get: read(() => entry), enumerable: true });
  }
  return mark(list, `batch striking at read ${strike}`);
}

/** A Proxy posing as what it wraps (a buffer): it must be refused or used as what it wraps, never misread. */
function posing(target: object): object {
  return mark(new Proxy(target, {}), `Proxy posing as ${target.constructor?.name}`);
}

/** The victims' slots by their native handle class (the tables' Slot<Class>). */
export const victimSlots: Record<string, HostileMaker> = {
  Stream: (v) => v.stream.slot, DeviceBuffer: (v) => v.buffer.slot, HostBuffer: (v) => v.hostBuffer.slot, Graph: (v) => v.graph.slot,
  GraphNode: (v) => v.node.slot, Event: (v) => v.event.slot, MemoryPool: (v) => v.pool.slot,
};

/** Strikers: values read as parameters (records, batches, boxed slots) that attack the call's victims. */
export function strikers(world: World): HostileMaker[] {
  if (world.deviceCount === 0) return [];
  const out: HostileMaker[] = [];
  for (let strike = 0; strike < 4; strike++) {
    out.push((v) => strikingRecord(v, world, strike, true, strike % 2 === 0 ? 'bytes to device' : 'device to bytes'),
      (v) => strikingRecord(v, world, strike, true, 'device'), (v) => strikingBatch(v, world, strike, 1 + (strike % 2)));
    for (const [what, slot] of Object.entries(victimSlots)) out.push((v) => strikingSlot(v, world, slot(v) as number, what, strike));
  }
  return out;
}

/** JavaScript bytes a striker detaches or shrinks, and Proxies posing as them. */
export const victimBytes: HostileMaker[] = [(v) => v.bytes, (v) => new Uint8Array(v.resizable), (v) => posing(v.bytes)];

/**
 * Hostile values for calls into the addon itself (raw arguments): strikers
 * (striking records, batches and boxed slots), and what they strike at: the
 * victims' slots and bytes, and views of them.
 * A hostile argument list is victims with one striker among them.
 */
export function nativeHostileMakers(world: World): { strikers: HostileMaker[]; victims: HostileMaker[] } {
  // Flags and the like too: a call must get as far as its use of what the striker freed.
  const victims: HostileMaker[] = [...victimBytes, () => false, () => true, () => undefined, () => 0];
  if (world.deviceCount === 0) return { strikers: [], victims };
  victims.push(...Object.values(victimSlots), (v) => v.hostBuffer.view());
  return { strikers: strikers(world), victims };
}

/**
 * Hostile values for the public API's memory operands (bytes): a Proxy posing
 * as a victim buffer, whose slot getter sets off the attack, and a view of
 * pinned memory.
 */
export function publicHostileBytes(world: World): HostileMaker[] {
  if (world.deviceCount === 0) return [];
  return [
    (v) => {
      const buffer = v.buffer;
      return mark(new Proxy(buffer, {
        get(target, key, receiver) {
          if (key === 'slot' && world.armed) v.attack();
          return Reflect.get(target, key, receiver);
        },
      }), 'Proxy posing as DeviceBuffer, disposing it when read');
    },
    (v) => v.hostBuffer.view(),
  ];
}
