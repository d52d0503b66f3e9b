// Green contexts on the GPU: a kernel that records the SM (%smid) each of its
// blocks ran on, launched with many blocks on a green context of N SMs,
// touches at most N distinct SMs, and more than N on the whole device; events
// recorded and waited on green contexts order work across them; toContext()
// serves modules, memory and streams; the resource queries agree with the
// device's attributes.
import { arg, compile, Context, CudaError, DeviceBuffer, Device, Event, GreenContext, Library, Module, SmResource, splitSmResource, Stream } from '../../lib';
import { describeGpu } from '../helpers/tiers';

const source = `
extern "C" __global__ void smids(unsigned* out, long long cycles) {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  // Each block stays a moment, so that the blocks spread over every SM they may use.
  long long start = clock64();
  while (clock64() - start < cycles) {}
  if (threadIdx.x == 0) out[blockIdx.x] = id;
}
// Spins, then writes value: what a later kernel finds there tells whether it waited.
extern "C" __global__ void slowWrite(unsigned* word, unsigned value, long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {}
  *word = value;
}
extern "C" __global__ void readPlusOne(const unsigned* word, unsigned* out) { *out = *word + 1; }
`;

const blocks = 4096;

// On compute capability 9.x the driver lends every green context two more SMs
// once any module that uses dynamic parallelism is loaded in the process (the
// device-graph tests load one, and jest runs several test files per process).
const lentSms = (device: Device): number => (device.computeCapability.major === 9 ? 2 : 0);

describeGpu('green contexts', () => {
  let device: Device;
  let library: Library;
  let all: SmResource;
  let groups: SmResource[];

  beforeAll(() => {
    device = Device.get(0);
    library = Library.load(compile(source, { name: 'green.cu' }));
    all = device.smResource();
    // Two groups of the smallest size the device allows: together far fewer SMs than it has.
    groups = splitSmResource(all, { minCount: all.minPartitionSize, groups: 2 }).groups;
  });
  afterAll(() => library.dispose());

  /** The distinct SMs a launch of `blocks` blocks ran on, on stream. */
  function smsUsed(stream: Stream): Set<number> {
    using out = DeviceBuffer.alloc(blocks * 4);
    using kernel = library.kernel('smids');
    kernel.launch({ grid: blocks, block: 128, stream }, [arg.ptr(out), arg.i64(20000n)]);
    stream.synchronizeSync();
    return new Set(out.readSync(Uint32Array));
  }

  test("the resource queries agree with the device's attributes", () => {
    const multiprocessors = device.attribute('multiprocessorCount');
    expect(all.smCount).toBe(multiprocessors);
    expect(all.deviceOrdinal).toBe(0);
    expect(device.primaryContext.smResource().smCount).toBe(multiprocessors);
    expect(all.minPartitionSize).toBeGreaterThan(0);
    expect(all.coscheduledAlignment).toBeGreaterThan(0);
    expect(groups).toHaveLength(2);
    for (const group of groups) {
      expect(group.smCount).toBeGreaterThanOrEqual(all.minPartitionSize);
      expect(group.smCount % all.coscheduledAlignment).toBe(0);
    }
  });

  test('a kernel on a green context of N SMs runs on at most N SMs; on the whole device, on more', () => {
    const n = groups[0].smCount;
    using green = GreenContext.create(device, groups[0]);
    expect(green.smResource().smCount).toBe(n);
    using stream = green.createStream();
    expect(stream.greenContext).toBe(green);
    const inGreen = smsUsed(stream);
    using plain = Stream.create();
    expect(plain.greenContext).toBeNull();
    const everywhere = smsUsed(plain);
    console.log(`green context of ${n} SMs: blocks ran on ${inGreen.size} SMs; whole device (${all.smCount} SMs): on ${everywhere.size}`);
    expect(inGreen.size).toBeGreaterThanOrEqual(1);
    expect(inGreen.size).toBeLessThanOrEqual(n + lentSms(device));
    expect(everywhere.size).toBeGreaterThan(n + lentSms(device));
  });

  test('two green contexts of one split run on disjoint SMs', () => {
    using a = GreenContext.create(device, groups[0]);
    using b = GreenContext.create(device, groups[1]);
    using sa = a.createStream();
    using sb = b.createStream();
    const onA = smsUsed(sa);
    const onB = smsUsed(sb);
    const shared = [...onA].filter((sm) => onB.has(sm));
    expect(shared.length).toBeLessThanOrEqual(lentSms(device));
    expect(a.id).not.toBe(b.id);
  });

  test('an event recorded on one green context and waited on by another orders their work', () => {
    using a = GreenContext.create(device, groups[0]);
    using b = GreenContext.create(device, groups[1]);
    using sa = a.createStream();
    using sb = b.createStream();
    using word = DeviceBuffer.alloc(4);
    using out = DeviceBuffer.alloc(4);
    word.fill(0);
    using slowWrite = library.kernel('slowWrite');
    using readPlusOne = library.kernel('readPlusOne');
    slowWrite.launch({ grid: 1, block: 1, stream: sa }, [arg.ptr(word), arg.u32(41), arg.i64(50_000_000n)]);
    using done = Event.create();
    a.recordEvent(done);
    b.waitEvent(done);
    readPlusOne.launch({ grid: 1, block: 1, stream: sb }, [arg.ptr(word), arg.ptr(out)]);
    sb.synchronizeSync();
    expect(out.readSync(Uint32Array)[0]).toBe(42);
    expect(done.query()).toBe(true);

    // The same through the contexts they convert to.
    using later = Event.create();
    slowWrite.launch({ grid: 1, block: 1, stream: sa }, [arg.ptr(word), arg.u32(99), arg.i64(50_000_000n)]);
    a.toContext().recordEvent(later);
    b.toContext().waitEvent(later);
    readPlusOne.launch({ grid: 1, block: 1, stream: sb }, [arg.ptr(word), arg.ptr(out)]);
    sb.synchronizeSync();
    expect(out.readSync(Uint32Array)[0]).toBe(100);
  });

  test('toContext() serves modules, memory, streams and events made in the green context', () => {
    using green = GreenContext.create(device, groups[0]);
    const context = green.toContext();
    expect(context).toBeInstanceOf(Context);
    expect(context.greenContext).toBe(green);
    expect(green.toContext()).toBe(context);
    expect(context.deviceOrdinal).toBe(0);
    expect(context.smResource().smCount).toBe(groups[0].smCount);
    using mod = Module.load(compile(source, { name: 'green-module.cu' }), { context });
    using kernel = mod.function('smids');
    using stream = Stream.create({ context });
    expect(stream.greenContext).toBe(green);
    using out = DeviceBuffer.alloc(blocks * 4, { context });
    using event = Event.create({ context });
    kernel.launch({ grid: blocks, block: 128, stream }, [arg.ptr(out), arg.i64(20000n)]);
    event.record(stream);
    event.synchronizeSync();
    const used = new Set(out.readSync(Uint32Array));
    expect(used.size).toBeGreaterThanOrEqual(1);
    expect(used.size).toBeLessThanOrEqual(groups[0].smCount + lentSms(device));
    // A module of the green context does not run on a stream of another context.
    using plain = Stream.create();
    expect(() => kernel.launch({ grid: 1, block: 1, stream: plain }, [arg.ptr(out), arg.i64(0n)])).toThrow(/another context/);
  });

  test("execution affinity: the support query answers; the primary context may use every SM; a green context's is refused or its share", () => {
    expect(typeof device.supportsExecAffinity()).toBe('boolean');
    expect(device.primaryContext.execAffinity()).toBe(all.smCount);
    using green = GreenContext.create(device, groups[0]);
    // CUDA 13.0 (driver 580) refuses the query for a green context's conversion.
    let answer: number | string;
    try {
      answer = green.toContext().execAffinity();
    } catch (error) {
      expect(error).toBeInstanceOf(CudaError);
      answer = (error as CudaError).code;
    }
    expect([groups[0].smCount, 'CUDA_ERROR_INVALID_CONTEXT']).toContain(answer);
  });

  test('a green context outlives its handle while a stream of it lives', () => {
    const green = GreenContext.create(device, groups[0]);
    const stream = green.createStream();
    green.dispose();
    expect(() => green.id).toThrow(/disposed/);
    expect(smsUsed(stream).size).toBeLessThanOrEqual(groups[0].smCount + lentSms(device));
    stream.dispose();
  });
});
