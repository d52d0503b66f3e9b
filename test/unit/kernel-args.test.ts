// Kernel arguments without a driver: types, layouts (from the driver's
// parameter info, or by C's rules), the refusal of mismatched lists, the bytes
// each value becomes, half-precision bits and launch configuration encoding.
import { arg, fromBFloat16Bits, fromFloat16Bits, KernelArgumentError, toBFloat16Bits, toFloat16Bits } from '../../lib';
import { argLayout, typeInfo, writeArg, ArgSlot } from '../../lib/kernel/args';
import { LaunchConfigIndex as S } from '../../lib/generated/layouts';
import { encodeLaunchShape } from '../../lib/kernel/launch-config';

const params = (...p: Array<[number, number]>) => p.map(([offset, size]) => ({ offset, size }));

describe('argument layout', () => {
  test('with the driver\'s parameters: its offsets, checked count and sizes', () => {
    // saxpy(float a, const float* x, float* y, unsigned n) as the driver reports it
    const layout = argLayout('saxpy', params([0, 4], [8, 8], [16, 8], [24, 4]), ['f32', 'ptr', 'ptr', 'u32']);
    expect(layout).toEqual({ checked: true, bytes: 28, slots: [
      { type: 'f32', offset: 0, size: 4 }, { type: 'ptr', offset: 8, size: 8 },
      { type: 'ptr', offset: 16, size: 8 }, { type: 'u32', offset: 24, size: 4 }] });
  });

  test('a wrong count is refused, naming the kernel and the sizes it takes', () => {
    let error: KernelArgumentError | undefined;
    try { argLayout('saxpy', params([0, 4], [8, 8]), ['f32']); } catch (e) { error = e as KernelArgumentError; }
    expect(error).toBeInstanceOf(KernelArgumentError);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ name: 'KernelArgumentError', kernel: 'saxpy', index: -1,
      message: 'saxpy: takes 2 arguments (4 bytes, 8 bytes); 1 given' });
    expect(() => argLayout('empty', [], ['u32'])).toThrow('empty: takes 0 arguments (none); 1 given');
  });

  test('a wrong size is refused, naming the argument', () => {
    expect(() => argLayout('saxpy', params([0, 4], [8, 8]), ['f64', 'ptr'])).toThrow(
      'saxpy: argument 0 is f64 (8 bytes) but parameter 0 takes 4 bytes');
    expect(() => argLayout('s', params([0, 24]), [{ bytes: 20 }])).toThrow('s: argument 0 is 20 bytes (20 bytes) but parameter 0 takes 24 bytes');
    let error: KernelArgumentError | undefined;
    try { argLayout('k', params([0, 8], [8, 2]), ['ptr', 'u32']); } catch (e) { error = e as KernelArgumentError; }
    expect(error!.index).toBe(1);
  });

  test('without the driver\'s parameters: C\'s alignment rules', () => {
    // (char, double, short, struct{24, align 8}, f16, ptr)
    const layout = argLayout('k', null, ['i8', 'f64', 'i16', { bytes: 24, align: 8 }, 'f16', 'ptr']);
    expect(layout.checked).toBe(false);
    expect(layout.slots.map((s) => s.offset)).toEqual([0, 8, 16, 24, 48, 56]);
    expect(layout.bytes).toBe(64);
    expect(argLayout('k', null, []).bytes).toBe(0);
  });

  test('types are checked', () => {
    expect(typeInfo('u64', 't')).toEqual({ size: 8, align: 8 });
    expect(typeInfo({ bytes: 12, align: 4 }, 't')).toEqual({ size: 12, align: 4 });
    expect(() => typeInfo('float' as never, 'types[0]')).toThrow(/types\[0\] must be one of i8, u8/);
    expect(() => typeInfo('toString' as never, 't')).toThrow(TypeError);
    expect(() => typeInfo({ bytes: 0 }, 't')).toThrow(RangeError);
    expect(() => typeInfo({ bytes: 8, align: 3 }, 't')).toThrow('t.align must be a power of two, got 3');
    expect(() => argLayout('k', null, 'ptr' as never)).toThrow('types must be an array');
  });
});

describe('argument values', () => {
  const slotOf = (type: ArgSlot['type'], size: number, offset = 0): ArgSlot => ({ type, offset, size });
  const write = (type: ArgSlot['type'], size: number, value: unknown) => {
    const bytes = new Uint8Array(size + 4);
    writeArg(new DataView(bytes.buffer), bytes, slotOf(type, size, 4), value, 'values', 0);
    return [...bytes.subarray(4)];
  };

  test('scalars become little-endian bytes of their size', () => {
    expect(write('i8', 1, -2)).toEqual([0xfe]);
    expect(write('u8', 1, 255)).toEqual([0xff]);
    expect(write('i16', 2, -2)).toEqual([0xfe, 0xff]);
    expect(write('u16', 2, 0x1234)).toEqual([0x34, 0x12]);
    expect(write('i32', 4, -1)).toEqual([0xff, 0xff, 0xff, 0xff]);
    expect(write('u32', 4, 0xdeadbeef)).toEqual([0xef, 0xbe, 0xad, 0xde]);
    expect(write('f32', 4, 1.5)).toEqual([0, 0, 0xc0, 0x3f]);
    expect(write('f64', 8, -2)).toEqual([0, 0, 0, 0, 0, 0, 0, 0xc0]);
    expect(write('f16', 2, toFloat16Bits(1))).toEqual([0x00, 0x3c]);
    expect(write('bf16', 2, toBFloat16Bits(1))).toEqual([0x80, 0x3f]);
  });

  test('64-bit integers from numbers (no bigint needed) and bigints', () => {
    expect(write('u64', 8, 2 ** 40 + 5)).toEqual([5, 0, 0, 0, 0, 1, 0, 0]);
    expect(write('u64', 8, 2n ** 64n - 1n)).toEqual([255, 255, 255, 255, 255, 255, 255, 255]);
    expect(write('i64', 8, -3)).toEqual([0xfd, 255, 255, 255, 255, 255, 255, 255]);
    expect(write('i64', 8, -(2n ** 63n))).toEqual([0, 0, 0, 0, 0, 0, 0, 0x80]);
    expect(() => write('u64', 8, -1)).toThrow(RangeError);
    expect(() => write('u64', 8, 2n ** 64n)).toThrow('values[0] is out of range for u64');
    expect(() => write('i64', 8, 2n ** 63n)).toThrow(RangeError);
    expect(() => write('i64', 8, 2 ** 60)).toThrow(RangeError); // not a safe integer: would have been rounded
  });

  test('pointers: bigint addresses and null', () => {
    expect(write('ptr', 8, 0x7f0012345678n)).toEqual([0x78, 0x56, 0x34, 0x12, 0x00, 0x7f, 0, 0]);
    expect(write('ptr', 8, null)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(() => write('ptr', 8, 1234)).toThrow('values[0] must be library memory (DeviceBuffer, HostBuffer, GraphAllocation, ...), a MemoryPointer, a bigint address or null');
    expect(() => write('ptr', 8, -1n)).toThrow(RangeError);
  });

  test('struct bytes are copied whole; their size must match', () => {
    const struct = new DataView(new ArrayBuffer(12));
    struct.setFloat64(0, 1, true);
    struct.setInt32(8, 7, true);
    expect(write({ bytes: 12 }, 12, struct)).toEqual([0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 7, 0, 0, 0]);
    expect(write({ bytes: 4 }, 4, new Uint16Array([1, 2]))).toEqual([1, 0, 2, 0]);
    expect(() => write({ bytes: 12 }, 12, new Uint8Array(8))).toThrow('values[0] must be 12 bytes, got 8');
    expect(() => write({ bytes: 12 }, 12, [1, 2])).toThrow(TypeError);
  });

  test('values out of their type\'s range or of the wrong kind are refused', () => {
    expect(() => write('u8', 1, 256)).toThrow(RangeError);
    expect(() => write('i8', 1, 1.5)).toThrow(TypeError);
    expect(() => write('u32', 4, -1)).toThrow(RangeError);
    expect(() => write('f16', 2, 1.5)).toThrow(TypeError); // bits, not a float
    expect(() => write('f32', 4, '1')).toThrow('values[0] must be a number, got string');
    expect(() => write('i32', 4, 1n)).toThrow(TypeError);
  });

  test('arg.* builds typed arguments', () => {
    expect(arg.f32(2)).toMatchObject({ type: 'f32', value: 2 });
    expect(arg.ptr(null)).toMatchObject({ type: 'ptr', value: null });
    const s = new Uint8Array(24);
    expect(arg.bytes(s, 8)).toMatchObject({ type: { bytes: 24, align: 8 }, value: s });
  });
});

describe('half-precision bits', () => {
  test('f16: exact values, rounding to nearest even, limits and specials', () => {
    expect(toFloat16Bits(0)).toBe(0);
    expect(toFloat16Bits(-0)).toBe(0x8000);
    expect(toFloat16Bits(1)).toBe(0x3c00);
    expect(toFloat16Bits(-2)).toBe(0xc000);
    expect(toFloat16Bits(65504)).toBe(0x7bff);
    expect(toFloat16Bits(65519)).toBe(0x7bff);
    expect(toFloat16Bits(65520)).toBe(0x7c00); // halfway to the next binade rounds to infinity
    expect(toFloat16Bits(Infinity)).toBe(0x7c00);
    expect(toFloat16Bits(-Infinity)).toBe(0xfc00);
    expect(toFloat16Bits(NaN)).toBe(0x7e00);
    expect(toFloat16Bits(2 ** -24)).toBe(1); // smallest subnormal
    expect(toFloat16Bits(2 ** -25)).toBe(0); // halfway: ties to even (0)
    expect(toFloat16Bits(3 * 2 ** -25)).toBe(2); // halfway between 1 and 2 subnormal steps: to even (2)
    expect(toFloat16Bits(2 ** -14)).toBe(0x0400); // smallest normal
    expect(toFloat16Bits(1 + 2 ** -11)).toBe(0x3c00); // halfway: to even
    expect(toFloat16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(toFloat16Bits(0.1)).toBe(0x2e66);
  });

  test('bf16: the upper half of float32, rounded', () => {
    expect(toBFloat16Bits(1)).toBe(0x3f80);
    expect(toBFloat16Bits(-1.5)).toBe(0xbfc0);
    expect(toBFloat16Bits(3.140625)).toBe(0x4049);
    expect(toBFloat16Bits(1 + 2 ** -8)).toBe(0x3f80); // halfway: to even
    expect(toBFloat16Bits(1 + 3 * 2 ** -8)).toBe(0x3f82);
    expect(toBFloat16Bits(3.4e38)).toBe(0x7f80); // beyond bf16's largest (about 3.39e38): infinity
    expect(toBFloat16Bits(NaN)).toBe(0x7fc0);
    expect(toBFloat16Bits(2 ** -133)).toBe(1);
  });

  test('decoding returns the value, and every f16 pattern round-trips', () => {
    expect(fromFloat16Bits(0x3555)).toBeCloseTo(0.33325, 5);
    expect(fromFloat16Bits(0xfc00)).toBe(-Infinity);
    expect(fromFloat16Bits(0x7e00)).toBeNaN();
    expect(fromBFloat16Bits(0x4049)).toBe(3.140625);
    const mismatched: number[] = [];
    for (let bits = 0; bits < 0x10000; bits++) {
      const value = fromFloat16Bits(bits);
      if (!Number.isNaN(value) && toFloat16Bits(value) !== bits) mismatched.push(bits);
    }
    expect(mismatched).toEqual([]);
    expect(() => fromFloat16Bits(0x10000)).toThrow(RangeError);
  });
});

describe('launch configuration encoding', () => {
  test('dimensions as numbers, arrays or objects; attributes', () => {
    const plain = encodeLaunchShape({ grid: 10, block: [32, 4] });
    expect([...plain]).toEqual([10, 1, 1, 32, 4, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    const all = encodeLaunchShape({ grid: { x: 8, y: 2 }, block: 128, sharedMemory: 4096, cooperative: true,
      cluster: [2], priority: -3, programmaticStreamSerialization: true });
    expect(all[S.gridY]).toBe(2);
    expect(all[S.sharedMemoryBytes]).toBe(4096);
    expect([all[S.cooperative], all[S.clusterX], all[S.clusterY], all[S.clusterZ]]).toEqual([1, 2, 1, 1]);
    expect([all[S.hasPriority], all[S.priority], all[S.programmaticStreamSerialization]]).toEqual([1, -3, 1]);
    expect(all.length).toBe(S.count);
  });

  test('bad shapes are refused before the driver sees them', () => {
    expect(() => encodeLaunchShape({ grid: 0, block: 1 })).toThrow('config.grid.x must be between 1 and');
    expect(() => encodeLaunchShape({ grid: [1, 2, 3, 4] as never, block: 1 })).toThrow('config.grid must have 1 to 3 dimensions');
    expect(() => encodeLaunchShape({ grid: 1, block: 1.5 })).toThrow(TypeError);
    expect(() => encodeLaunchShape({ grid: 1, block: 'x' as never })).toThrow(TypeError);
    expect(() => encodeLaunchShape({ grid: 1, block: 1, sharedMemory: -1 })).toThrow(RangeError);
    expect(() => encodeLaunchShape({ grid: 1, block: 1, cooperative: 1 as never })).toThrow('config.cooperative must be a boolean');
    expect(() => encodeLaunchShape({ grid: 2 ** 31, block: 1 })).toThrow(RangeError);
  });
});
