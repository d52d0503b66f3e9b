// Descriptors: what one process sends another so that it can open shared GPU
// memory or an event. Plain JSON-safe data (file descriptors, where a path needs
// them, travel beside it over an FdChannel), versioned, and validated field by
// field when they arrive, as untrusted input.
import { randomBytes } from 'crypto';
import { InvalidDescriptorError } from './errors';

/** The descriptor format this version writes and reads. */
export const descriptorVersion = 1;

/** The format tag of shared-memory descriptors (a descriptor says what it describes). */
export const memoryDescriptorFormat = 'cuda-driver/shared-memory';
/** The format tag of shared-event descriptors. */
export const eventDescriptorFormat = 'cuda-driver/shared-event';

/** The most pieces (and so file descriptors) one shared-memory descriptor may name. */
export const maxDescriptorSegments = 64;

/** The process that exported: its pid, and a random token unique to it (pids repeat across containers). */
export interface ExporterIdentity {
  /** The exporting process's id. */
  readonly pid: number;
  /** A random token (32 hex digits) made once per exporting process. */
  readonly token: string;
}

/** The device that owns the memory or event, by UUID (ordinals differ between processes). */
export interface DeviceIdentity {
  /** `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, as Device.uuid gives it. */
  readonly uuid: string;
  /** The exporter's ordinal for it (informational). */
  readonly ordinal: number;
}

/** What every shared-memory descriptor has. */
interface MemoryDescriptorBase {
  /** `'cuda-driver/shared-memory'`: what the descriptor describes. */
  readonly format: typeof memoryDescriptorFormat;
  /** The descriptor format's version ({@link descriptorVersion}). */
  readonly version: typeof descriptorVersion;
  /** Random id of this export (32 hex digits). */
  readonly id: string;
  /** The process that exported the memory. */
  readonly exporter: ExporterIdentity;
  /** The device the memory lives on. */
  readonly device: DeviceIdentity;
  /** Bytes shared: the importer sees exactly this many. */
  readonly size: number;
}

/** cuMemAlloc memory through legacy CUDA IPC. */
export interface LegacyMemoryDescriptor extends MemoryDescriptorBase {
  /** The sharing path. */
  readonly kind: 'legacy';
  /** The allocation's CUipcMemHandle, base64 (64 bytes). */
  readonly handle: string;
  /** Where the shared bytes start in the allocation (an interior pointer's offset). */
  readonly offset: number;
}

/** A stream-ordered allocation from a shared memory pool. */
export interface PoolMemoryDescriptor extends MemoryDescriptorBase {
  /** The sharing path. */
  readonly kind: 'pool';
  /** How the pool travels: a file descriptor beside the descriptor, or a fabric handle inside it. */
  readonly handleType: 'posixFileDescriptor' | 'fabric';
  /** Names the exporter's pool (hex), so that an importer imports each pool once. */
  readonly pool: string;
  /** fabric: the pool's fabric handle, base64 (64 bytes); posixFileDescriptor: travels as a descriptor. */
  readonly poolHandle?: string;
  /** The allocation's CUmemPoolPtrExportData, base64 (64 bytes). */
  readonly pointer: string;
  /** Where the shared bytes start in the allocation. */
  readonly offset: number;
}

/** One physical allocation of shared virtual memory, as the exporter mapped it. */
export interface VmmSegment {
  /** The physical allocation's size in bytes. */
  readonly allocationSize: number;
  /** Where in the allocation the mapped bytes start. */
  readonly allocationOffset: number;
  /** Bytes mapped; the segments are mapped one after another. */
  readonly bytes: number;
  /** fabric: the allocation's fabric handle, base64 (64 bytes). */
  readonly fabric?: string;
}

/** Virtual memory (cuMemCreate allocations) shared as POSIX descriptors or fabric handles. */
export interface VmmMemoryDescriptor extends MemoryDescriptorBase {
  /** The sharing path. */
  readonly kind: 'vmm';
  /** How the allocations travel: file descriptors beside the descriptor, or fabric handles inside it. */
  readonly handleType: 'posixFileDescriptor' | 'fabric';
  /** The physical allocations, in address order (one file descriptor each for 'posixFileDescriptor'). */
  readonly segments: readonly VmmSegment[];
  /** Where the shared bytes start in the segments mapped one after another. */
  readonly offset: number;
}

/** A shareable description of GPU memory: see shareMemory and openSharedMemory. */
export type SharedMemoryDescriptor = LegacyMemoryDescriptor | PoolMemoryDescriptor | VmmMemoryDescriptor;

/** A shareable description of an interprocess event: see shareEvent and openSharedEvent. */
export interface SharedEventDescriptor {
  /** `'cuda-driver/shared-event'`: what the descriptor describes. */
  readonly format: typeof eventDescriptorFormat;
  /** The descriptor format's version ({@link descriptorVersion}). */
  readonly version: typeof descriptorVersion;
  /** Random id of this export (32 hex digits). */
  readonly id: string;
  /** The process that exported the event. */
  readonly exporter: ExporterIdentity;
  /** The device the event belongs to. */
  readonly device: DeviceIdentity;
  /** The event's CUipcEventHandle, base64 (64 bytes). */
  readonly handle: string;
}

const token = randomBytes(16).toString('hex');

/** @internal This process as an exporter. */
export function thisProcess(): ExporterIdentity {
  return { pid: process.pid, token };
}

/** @internal True when a descriptor was made by this very process. */
export function exportedHere(exporter: ExporterIdentity): boolean {
  return exporter.token === token;
}

/** @internal A fresh export id. */
export function newExportId(): string {
  return randomBytes(16).toString('hex');
}

/** @internal Handle bytes as descriptor text. */
export function encodeBytes(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** @internal Descriptor text as handle bytes (validated already). */
export function decodeBytes(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/** How many file descriptors travel beside a descriptor. */
export function descriptorFdCount(descriptor: SharedMemoryDescriptor): number {
  if (descriptor.kind === 'legacy' || descriptor.handleType !== 'posixFileDescriptor') return 0;
  return descriptor.kind === 'pool' ? 1 : descriptor.segments.length;
}

// ---- validation of untrusted input ----

type Fields = Record<string, unknown>;

function fail(field: string, problem: string): never {
  throw new InvalidDescriptorError(field, problem);
}

// The named properties of an untrusted object, each read exactly once, into a
// plain object: a getter or a Proxy answers once, and what is checked is what
// is used.
function record(value: unknown, field: string, keys: readonly string[]): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(field, 'must be an object');
  const copy: Fields = Object.create(null);
  for (const key of keys) copy[key] = (value as Fields)[key];
  return copy;
}

// The entries of an untrusted array, its length and each entry read once.
function list(value: unknown, field: string, min: number, max: number): unknown[] {
  if (!Array.isArray(value)) fail(field, 'must be an array');
  const length: unknown = value.length;
  if (typeof length !== 'number' || length < min || length > max) fail(field, `must hold ${min} to ${max} entries`);
  const copy: unknown[] = [];
  for (let i = 0; i < length; i++) copy.push(value[i]);
  return copy;
}

function integer(value: unknown, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) fail(field, 'must be an integer');
  if (value < min || value > max) fail(field, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function matching(value: unknown, field: string, pattern: RegExp, what: string): string {
  if (typeof value !== 'string' || value.length > 128 || !pattern.test(value)) fail(field, `must be ${what}`);
  return value;
}

// Exactly 64 bytes of canonical base64.
const handleText = /^[A-Za-z0-9+/]{86}==$/;
const hex32 = /^[0-9a-f]{32}$/;

function handle(value: unknown, field: string): string {
  return matching(value, field, handleText, 'a 64-byte handle in base64');
}

function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(field, `must be one of ${allowed.map((a) => `'${a}'`).join(', ')}`);
  }
  return value as T;
}

function header(value: unknown, format: string, what: string, keys: readonly string[]):
  { fields: Fields; id: string; exporter: ExporterIdentity; device: DeviceIdentity } {
  const fields = record(value, '', ['format', 'version', 'id', 'exporter', 'device', ...keys]);
  if (fields.format !== format) fail('format', `must be '${format}' (this is not ${what})`);
  if (fields.version !== descriptorVersion) {
    fail('version', `must be ${descriptorVersion}: the exporter runs a version of this library that writes ${JSON.stringify(fields.version)}`);
  }
  const exporter = record(fields.exporter, 'exporter', ['pid', 'token']);
  const device = record(fields.device, 'device', ['uuid', 'ordinal']);
  return {
    fields,
    id: matching(fields.id, 'id', hex32, '32 hex digits'),
    exporter: Object.freeze({
      pid: integer(exporter.pid, 'exporter.pid', 1, 0x7fffffff),
      token: matching(exporter.token, 'exporter.token', hex32, '32 hex digits'),
    }),
    device: Object.freeze({
      uuid: matching(device.uuid, 'device.uuid', /^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a device UUID such as GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'),
      ordinal: integer(device.ordinal, 'device.ordinal', 0, 0xffff),
    }),
  };
}

/**
 * Checks a shared-memory descriptor received from elsewhere and returns a
 * normalized, frozen copy holding only the fields this version knows (each
 * read from value once). Throws InvalidDescriptorError naming the first bad
 * field.
 */
export function validateMemoryDescriptor(value: unknown): SharedMemoryDescriptor {
  const { fields, id, exporter, device } = header(value, memoryDescriptorFormat, 'a shared-memory descriptor',
    ['kind', 'size', 'offset', 'handle', 'handleType', 'pool', 'poolHandle', 'pointer', 'segments']);
  const kind = oneOf(fields.kind, 'kind', ['legacy', 'pool', 'vmm'] as const);
  const size = integer(fields.size, 'size', 1);
  const offset = integer(fields.offset, 'offset', 0);
  const base = { format: memoryDescriptorFormat, version: descriptorVersion, id, exporter, device, size } as const;
  if (offset + size > Number.MAX_SAFE_INTEGER) fail('size', 'with offset exceeds the largest safe integer');
  switch (kind) {
    case 'legacy':
      return Object.freeze({ ...base, kind, handle: handle(fields.handle, 'handle'), offset });
    case 'pool': {
      const handleType = oneOf(fields.handleType, 'handleType', ['posixFileDescriptor', 'fabric'] as const);
      const pool = matching(fields.pool, 'pool', /^[0-9a-f]{1,16}$/, 'the pool\'s hex id');
      const pointer = handle(fields.pointer, 'pointer');
      if (handleType === 'fabric') {
        return Object.freeze({ ...base, kind, handleType, pool, poolHandle: handle(fields.poolHandle, 'poolHandle'), pointer, offset });
      }
      if (fields.poolHandle !== undefined) fail('poolHandle', 'must be absent: a POSIX descriptor travels beside the descriptor');
      return Object.freeze({ ...base, kind, handleType, pool, pointer, offset });
    }
    case 'vmm': {
      const handleType = oneOf(fields.handleType, 'handleType', ['posixFileDescriptor', 'fabric'] as const);
      let total = 0;
      const segments = list(fields.segments, 'segments', 1, maxDescriptorSegments).map((entry, i): VmmSegment => {
        const field = `segments[${i}]`;
        const s = record(entry, field, ['allocationSize', 'allocationOffset', 'bytes', 'fabric']);
        const allocationSize = integer(s.allocationSize, `${field}.allocationSize`, 1);
        const allocationOffset = integer(s.allocationOffset, `${field}.allocationOffset`, 0);
        const bytes = integer(s.bytes, `${field}.bytes`, 1);
        if (allocationOffset + bytes > allocationSize) fail(field, `maps [${allocationOffset}, ${allocationOffset}+${bytes}) of a ${allocationSize}-byte allocation`);
        total += bytes;
        if (total > Number.MAX_SAFE_INTEGER) fail('segments', 'add up to more than the largest safe integer');
        if (handleType === 'fabric') return Object.freeze({ allocationSize, allocationOffset, bytes, fabric: handle(s.fabric, `${field}.fabric`) });
        if (s.fabric !== undefined) fail(`${field}.fabric`, 'must be absent: POSIX descriptors travel beside the descriptor');
        return Object.freeze({ allocationSize, allocationOffset, bytes });
      });
      if (offset + size > total) fail('size', `with offset (${offset}+${size}) exceeds the ${total} bytes the segments map`);
      return Object.freeze({ ...base, kind, handleType, segments: Object.freeze(segments), offset });
    }
  }
}

/** Checks an event descriptor received from elsewhere (see validateMemoryDescriptor). */
export function validateEventDescriptor(value: unknown): SharedEventDescriptor {
  const { fields, id, exporter, device } = header(value, eventDescriptorFormat, 'a shared-event descriptor', ['handle']);
  return Object.freeze({ format: eventDescriptorFormat, version: descriptorVersion, id, exporter, device, handle: handle(fields.handle, 'handle') });
}
