// The base of every handle class. A handle is a slot of the native slot table
// (native/core/slots.h); this object adopts it, and once the object is collected
// its slot is freed: a handle garbage-collected undisposed is released then,
// in a task of its own (never in the middle of a call). Every call names the
// handle by its slot. Use after dispose throws DisposedError from the native
// layer, before the driver is reached.
import { inspect, InspectOptionsStylized } from 'util';
import { native as binding, NativeHandle, Slot } from './native';

// Structured clone (worker.postMessage, structuredClone) copies an object's own
// enumerable string-keyed properties and refuses one that holds a function:
// this one makes a handle refuse, where it would otherwise arrive as a plain
// object whose slot number means nothing there. V8's DataCloneError quotes
// the function's source, so the string in it (a directive, kept by every
// compiler) is its message.
const refuseClone = function cudaHandle() {
  'a handle of cuda-driver cannot be cloned or posted to a worker: create it in the worker, or share memory with shareMemory()';
};

// Adoptions and collections go into the handle queue the native slot table
// reads (native/core/slots.h) instead of being calls: a call cost more than the rest
// of making and adopting a handle. The table reads the queue before it acts on
// ownership (a dispose, its sweep of unadopted slots); a full queue is drained
// here, and collections are drained once their finalization task is done, so
// that the resources of collected handles go back without waiting for a call.
const queue = binding.handleQueue();
const queueEntries = queue.length - 1;
let drainQueued = false;
const drainCollected = () => {
  drainQueued = false;
  binding.drainHandleQueue();
};

function enqueue(entry: number): void {
  const count = queue[0] + 1;
  queue[count] = entry;
  queue[0] = count;
  if (count === queueEntries) binding.drainHandleQueue();
}

// Frees the slot of each collected handle object, disposed or not (a disposed
// handle's slot stays taken until then, so that its number keeps saying
// "disposed"), and those of its group's members. A registry, not a Node-API
// finalizer per object, which costs more per handle made and disposed,
// collections and finalizers included (bench/handle-cost.js measures both).
// Nothing is unregistered on dispose, which cost more than the finalizer; a
// stale number is ignored (slots carry a generation).
const collected = new FinalizationRegistry<number | SlotGroup>((held) => {
  if (typeof held === 'number') {
    enqueue(-1 - held);
  } else {
    enqueue(-1 - held.owner);
    for (const slot of held.members) enqueue(-1 - slot);
  }
  if (!drainQueued) {
    drainQueued = true;
    queueMicrotask(drainCollected);
  }
});

// Handles not registered yet, registered at the end of the task that made
// them (or once this many wait). A handle disposed before then never is: a
// registry cell keeps its object alive through young-generation collections
// until a full one, which cost more than the rest of the handle's life. Its
// dispose frees the slot at once instead, and its object names the disposed
// slot of its class from then on, which says "disposed" as its own did.
const unregistered: (Disposable | undefined)[] = [];
const registerAtOnce = 1024;
let registrationQueued = false;

function registerWaiting(): void {
  registrationQueued = false;
  for (const handle of unregistered) {
    if (handle === undefined) continue;
    handle.waiting = -1;
    collected.register(handle, handle.slot);
  }
  unregistered.length = 0;
}

/**
 * Slots freed together when their owner's object is collected (not exported
 * from the package; its constructor is internal): a
 * graph's and its nodes'. The native layer owns a member's slot from the
 * start (graph nodes: native/graph/graph.h NodeBox), so its object neither
 * adopts it nor is registered, which was most of a node's cost; members keep
 * their owner reachable (a node holds its graph), so none is collected before it.
 */
export class SlotGroup {
  readonly members: number[] = [];
  constructor(readonly owner: number) {}
}

/**
 * The base of every handle class (streams, events, buffers, graphs, ...).
 *
 * `dispose()` releases the handle and is idempotent; `using handle = ...` calls
 * it at the end of the block. A handle that is garbage-collected undisposed is
 * released too, but only once nothing on the GPU can still use the resource.
 * Using a disposed handle throws {@link DisposedError}.
 */
export abstract class Disposable<H extends NativeHandle = NativeHandle> implements globalThis.Disposable {
  // These are assigned in the constructor, not declared as class fields:
  // a field is defined on the object (DefineOwnProperty), and that site in this
  // base constructor sees every handle class's shape, so V8 went to its runtime
  // for each definition, which cost more than the native call.
  // A plain assignment is served from V8's store cache.

  // True once dispose() has run on this object: known without a call into the
  // native layer, which stays the authority (see disposed: a handle may also be
  // released from the native side).
  private declare releasedFlag: boolean;

  // The handle's slot number (native/core/slots.h).
  private declare slotNumber: number;

  // See refuseClone.
  private declare notCloneable: typeof refuseClone;

  /** @internal Its place among the handles waiting to be registered, or -1 (registered, or never to be). */
  declare waiting: number;

  /**
   * handle: a new handle's slot, which this object adopts. group: the group
   * this object owns (its owner is handle), or the one it joins as a member.
   */
  protected constructor(handle: Slot<H>, group?: SlotGroup) {
    this.releasedFlag = false;
    this.slotNumber = handle;
    this.notCloneable = refuseClone;
    if (group === undefined) {
      enqueue(handle);
      const waiting = unregistered.push(this) - 1;
      this.waiting = waiting;
      if (waiting + 1 === registerAtOnce) {
        registerWaiting();
      } else if (!registrationQueued) {
        registrationQueued = true;
        queueMicrotask(registerWaiting);
      }
    } else {
      // A group's owner is adopted and registered at once (its members are
      // freed with it); a member is only listed. (Written here, not called:
      // before the engine optimizes a build, each call costs.)
      this.waiting = -1;
      if (group.owner === handle) {
        enqueue(handle);
        collected.register(this, group);
      } else {
        group.members.push(handle);
      }
    }
  }

  /** @internal The number calls name the handle by (native/core/slots.h). */
  get slot(): number {
    return this.slotNumber;
  }

  /** True once dispose() has run on this object (known without a native call, for checks of its own). */
  protected get released(): boolean {
    return this.releasedFlag;
  }

  /** True once dispose() has run. */
  get disposed(): boolean {
    return !binding.handleAlive(this.slotNumber);
  }

  /**
   * Releases the handle. Idempotent. What the driver still needs (work queued on
   * the GPU, a graph that uses the resource) keeps the underlying resource alive
   * until it is done; this object is unusable from now on.
   */
  dispose(): void {
    if (this.releasedFlag) return;
    this.releasedFlag = true;
    const waiting = this.waiting;
    if (waiting < 0) {
      binding.disposeHandle(this.slotNumber);
      return;
    }
    // Never registered, and now never to be: out of the list (the last one
    // made is the usual case), and the slot freed.
    this.waiting = -1;
    unregistered[waiting] = undefined;
    while (unregistered.length > 0 && unregistered[unregistered.length - 1] === undefined) unregistered.pop();
    this.slotNumber = binding.disposeUnregistered(this.slotNumber);
  }

  /** The same as dispose(), for `using`. */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /**
   * What util.inspect (console.log) shows of a live handle besides its class:
   * its device and size where it has them. Subclasses add what identifies them.
   */
  protected inspectSummary(): Record<string, unknown> {
    const summary: Record<string, unknown> = {};
    const self = this as unknown as { device?: unknown; deviceOrdinal?: unknown; size?: unknown };
    if ('device' in this) {
      const device = self.device;
      summary.device = typeof device === 'object' && device !== null && 'ordinal' in device ? device.ordinal : device;
    } else if ('deviceOrdinal' in this) {
      summary.device = self.deviceOrdinal;
    }
    if ('size' in this) summary.size = self.size;
    return summary;
  }

  /** `DeviceBuffer { device: 0, size: 1024 }`, `Stream { disposed: true }`: never the internal fields. */
  [inspect.custom](depth: number, options: InspectOptionsStylized, nodeInspect: typeof inspect): string {
    const kind = this.constructor.name;
    if (depth < 0) return options.stylize(`[${kind}]`, 'special');
    let summary: Record<string, unknown>;
    if (this.disposed) {
      summary = { disposed: true };
    } else {
      try {
        summary = this.inspectSummary();
      } catch {
        // Released from the native side meanwhile, or a getter the driver refused: show the kind alone.
        summary = {};
      }
    }
    return `${kind} ${nodeInspect(summary, { ...options, depth: typeof options.depth === 'number' ? options.depth - 1 : options.depth })}`;
  }
}

/**
 * @internal The slot of value, a handle of this library, for a call that names
 * it; the native layer checks that it is of the class it expects (what).
 * Classes that import each other's module in a circle call this instead of
 * checking with instanceof.
 */
export function slotOf(value: unknown, name: string, what: string): number {
  if (value instanceof Disposable) return value.slot;
  throw new TypeError(`${name} must be ${/^[AEIOU]/.test(what) ? 'an' : 'a'} ${what}`);
}
