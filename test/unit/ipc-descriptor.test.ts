// Descriptors arrive from other processes: every field is checked before
// anything reaches the driver, and what passes is a normalized, frozen copy.
// Also the size rounding the virtual memory layer reports. No driver needed.
import {
  descriptorFdCount,
  InvalidDescriptorError,
  roundToGranularity,
  validateEventDescriptor,
  validateMemoryDescriptor,
  type VmmMemoryDescriptor,
} from '../../lib';

const handle = Buffer.alloc(64, 7).toString('base64');
const base = {
  format: 'cuda-driver/shared-memory',
  version: 1,
  id: '0123456789abcdef0123456789abcdef',
  exporter: { pid: 4242, token: 'fedcba9876543210fedcba9876543210' },
  device: { uuid: 'GPU-a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf', ordinal: 0 },
  size: 4096,
};
const legacy = { ...base, kind: 'legacy', handle, offset: 512 };
const pool = { ...base, kind: 'pool', handleType: 'posixFileDescriptor', pool: '7f00aa', pointer: handle, offset: 0 };
const vmm = {
  ...base, kind: 'vmm', handleType: 'posixFileDescriptor', offset: 2 << 20, size: 3 << 20,
  segments: [{ allocationSize: 4 << 20, allocationOffset: 0, bytes: 4 << 20 }, { allocationSize: 2 << 20, allocationOffset: 0, bytes: 2 << 20 }],
};
const event = { format: 'cuda-driver/shared-event', version: 1, id: base.id, exporter: base.exporter, device: base.device, handle };

// The field an invalid descriptor is reported for.
function fieldOf(value: unknown, validate: (v: unknown) => unknown = validateMemoryDescriptor): string {
  try {
    validate(value);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidDescriptorError);
    return (e as InvalidDescriptorError).field;
  }
  throw new Error('accepted an invalid descriptor');
}

describe('valid descriptors', () => {
  test.each([['legacy', legacy], ['pool', pool], ['vmm', vmm]])('%s: accepted, normalized and frozen, survives JSON', (_, d) => {
    const checked = validateMemoryDescriptor({ ...d, extra: 'dropped' });
    expect(checked).toEqual(d);
    expect('extra' in checked).toBe(false);
    expect(Object.isFrozen(checked)).toBe(true);
    expect(Object.isFrozen(checked.exporter)).toBe(true);
    expect(validateMemoryDescriptor(JSON.parse(JSON.stringify(checked)))).toEqual(checked);
  });

  test('fabric variants carry their handles in the descriptor, not as file descriptors', () => {
    const fabricPool = { ...pool, handleType: 'fabric', poolHandle: handle };
    const fabricVmm = { ...vmm, handleType: 'fabric', segments: vmm.segments.map((s) => ({ ...s, fabric: handle })) };
    expect(validateMemoryDescriptor(fabricPool)).toEqual(fabricPool);
    expect(validateMemoryDescriptor(fabricVmm)).toEqual(fabricVmm);
    expect(descriptorFdCount(validateMemoryDescriptor(fabricPool))).toBe(0);
    expect(descriptorFdCount(validateMemoryDescriptor(fabricVmm))).toBe(0);
  });

  test('how many file descriptors travel with each path', () => {
    expect(descriptorFdCount(validateMemoryDescriptor(legacy))).toBe(0);
    expect(descriptorFdCount(validateMemoryDescriptor(pool))).toBe(1);
    expect(descriptorFdCount(validateMemoryDescriptor(vmm))).toBe(2);
  });

  test('event descriptors', () => {
    expect(validateEventDescriptor(event)).toEqual(event);
    expect(fieldOf({ ...event, handle: 'short' }, validateEventDescriptor)).toBe('handle');
    expect(fieldOf(legacy, validateEventDescriptor)).toBe('format');
    expect(fieldOf(event)).toBe('format');
  });
});

describe('untrusted input is refused field by field', () => {
  test.each<[string, unknown, string]>([
    ['null', null, ''],
    ['an array', [legacy], ''],
    ['a string', JSON.stringify(legacy), ''],
    ['another format', { ...legacy, format: 'something-else' }, 'format'],
    ['a newer version', { ...legacy, version: 2 }, 'version'],
    ['a version as text', { ...legacy, version: '1' }, 'version'],
    ['an unknown kind', { ...legacy, kind: 'magic' }, 'kind'],
    ['a missing id', { ...legacy, id: undefined }, 'id'],
    ['an id that is not hex', { ...legacy, id: 'x'.repeat(32) }, 'id'],
    ['no exporter', { ...legacy, exporter: undefined }, 'exporter'],
    ['a pid of 0', { ...legacy, exporter: { ...base.exporter, pid: 0 } }, 'exporter.pid'],
    ['a short token', { ...legacy, exporter: { ...base.exporter, token: 'abc' } }, 'exporter.token'],
    ['a device uuid that is not one', { ...legacy, device: { uuid: 'GPU-0', ordinal: 0 } }, 'device.uuid'],
    ['a negative ordinal', { ...legacy, device: { ...base.device, ordinal: -1 } }, 'device.ordinal'],
    ['size 0', { ...legacy, size: 0 }, 'size'],
    ['a fractional size', { ...legacy, size: 1.5 }, 'size'],
    ['a size as text', { ...legacy, size: '4096' }, 'size'],
    ['an unsafe size', { ...legacy, size: 2 ** 60 }, 'size'],
    ['offset + size past 2^53', { ...legacy, offset: Number.MAX_SAFE_INTEGER - 10, size: 100 }, 'size'],
    ['a negative offset', { ...legacy, offset: -1 }, 'offset'],
    ['a handle of 63 bytes', { ...legacy, handle: Buffer.alloc(63).toString('base64') }, 'handle'],
    ['a handle of 65 bytes', { ...legacy, handle: Buffer.alloc(65).toString('base64') }, 'handle'],
    ['a handle that is not base64', { ...legacy, handle: '!'.repeat(86) + '==' }, 'handle'],
    ['a huge string', { ...legacy, handle: 'A'.repeat(1e6) }, 'handle'],
    ['a pool without its pointer', { ...pool, pointer: undefined }, 'pointer'],
    ['a pool id that is not hex', { ...pool, pool: 'zz' }, 'pool'],
    ['a fabric pool without its handle', { ...pool, handleType: 'fabric' }, 'poolHandle'],
    ['a descriptor-passed pool with a fabric handle', { ...pool, poolHandle: handle }, 'poolHandle'],
    ['an unknown handle type', { ...pool, handleType: 'win32' }, 'handleType'],
    ['no segments', { ...vmm, segments: [] }, 'segments'],
    ['65 segments', { ...vmm, segments: Array(65).fill(vmm.segments[1]) }, 'segments'],
    ['segments that are not an array', { ...vmm, segments: { 0: vmm.segments[0] } }, 'segments'],
    ['a segment past its allocation', { ...vmm, segments: [{ allocationSize: 2 << 20, allocationOffset: 2 << 20, bytes: 2 << 20 }] }, 'segments[0]'],
    ['a segment of 0 bytes', { ...vmm, segments: [{ ...vmm.segments[0], bytes: 0 }] }, 'segments[0].bytes'],
    ['a range past the segments', { ...vmm, offset: 4 << 20, size: 4 << 20 }, 'size'],
    ['a fabric segment without its handle', { ...vmm, handleType: 'fabric' }, 'segments[0].fabric'],
    ['a descriptor-passed segment with a fabric handle', { ...vmm, segments: [{ ...vmm.segments[0], fabric: handle }, vmm.segments[1]] }, 'segments[0].fabric'],
  ])('%s', (_, value, field) => {
    expect(fieldOf(value)).toBe(field);
  });

  test('the message names the field and the problem', () => {
    expect(() => validateMemoryDescriptor({ ...legacy, version: 9 })).toThrow(/version must be 1: the exporter runs a version of this library that writes 9/);
    expect(() => validateMemoryDescriptor({ ...legacy, size: -5 })).toThrow(/size must be between 1 and/);
  });

  test('each field is read once: a Proxy that answers differently the second time cannot slip a forged segment through', () => {
    // Valid segments when looked at, a forged one (4 GiB mapped from a 2 MiB allocation) when used.
    const forged = [{ allocationSize: 2 << 20, allocationOffset: 0, bytes: 4 << 30 }];
    const reads = new Map<PropertyKey, number>();
    const twoFaced = new Proxy(vmm, {
      get(target, key, receiver) {
        reads.set(key, (reads.get(key) ?? 0) + 1);
        if (key === 'segments' && reads.get(key)! > 1) return { length: 1, map: (f: (s: unknown, i: number) => unknown) => (vmm.segments.forEach(f), forged) };
        return Reflect.get(target, key, receiver);
      },
    });
    expect((validateMemoryDescriptor(twoFaced) as VmmMemoryDescriptor).segments).toEqual(vmm.segments);
    expect([...reads.values()].every((n) => n === 1)).toBe(true);
    // Nested objects and the list itself are read once each too.
    let lengthReads = 0;
    const entryReads: number[] = [0, 0];
    const segments = new Proxy(vmm.segments, {
      get(target, key, receiver) {
        if (key === 'length') lengthReads++;
        if (key === '0' || key === '1') entryReads[Number(key)]++;
        return Reflect.get(target, key, receiver);
      },
    });
    expect((validateMemoryDescriptor({ ...vmm, segments }) as VmmMemoryDescriptor).segments).toEqual(vmm.segments);
    expect([lengthReads, ...entryReads]).toEqual([1, 1, 1]);
    let pidReads = 0;
    const exporter = { token: base.exporter.token, get pid() { return ++pidReads === 1 ? 4242 : -1; } };
    expect(validateMemoryDescriptor({ ...legacy, exporter }).exporter).toEqual(base.exporter);
    expect(pidReads).toBe(1);
  });

  test('prototype tricks do not smuggle fields in', () => {
    const sneaky = JSON.parse(`{"__proto__": {"kind": "legacy"}, ${JSON.stringify(legacy).slice(1).replace('"kind":"legacy",', '')}`);
    expect(fieldOf(sneaky)).toBe('kind');
  });
});

describe('rounding sizes to the allocation granularity', () => {
  const MiB = 1 << 20;
  test.each([
    [0, 2 * MiB, 0],
    [1, 2 * MiB, 2 * MiB],
    [2 * MiB, 2 * MiB, 2 * MiB],
    [2 * MiB + 1, 2 * MiB, 4 * MiB],
    [3 * MiB, 2 * MiB, 4 * MiB],
    [5, 1, 5],
    [Number.MAX_SAFE_INTEGER - 1, 2, Number.MAX_SAFE_INTEGER - 1],
  ])('%i bytes at granularity %i -> %i', (bytes, granularity, rounded) => {
    expect(roundToGranularity(bytes, granularity)).toBe(rounded);
  });

  test('bad arguments', () => {
    expect(() => roundToGranularity(-1, 2)).toThrow(RangeError);
    expect(() => roundToGranularity(1.5, 2)).toThrow(TypeError);
    expect(() => roundToGranularity(10, 0)).toThrow(RangeError);
    expect(() => roundToGranularity(Number.MAX_SAFE_INTEGER, 2 * MiB)).toThrow(/too large/);
    expect(roundToGranularity(BigInt(6) as unknown as number, 4)).toBe(8);
  });
});
