// One create–use–dispose cycle of every handle kind. The soak runs each many
// times and compares what the process holds before and after (test/soak/main.ts).
// A kind's weight scales its count: creating a context takes the driver tens of
// milliseconds, NVRTC compiles take longer; everything else runs the full count.
import type * as Cuda from '../../lib';

export interface Fixtures {
  stream: Cuda.Stream;
  graph: Cuda.Graph;
  library: Cuda.Library;
  kernel: Cuda.Kernel;
  buffer: Cuda.DeviceBuffer;
  code: string | Uint8Array;
  granularity: number;
  server: Cuda.FdChannelServer;
  /** Whether NVRTC is here (GPU hosts): compiles are soaked too. */
  compile: boolean;
  /** Whether conditional handles are soaked too (GPU hosts; they need CUDA 12.3). */
  conditional: boolean;
}

export interface Kind {
  weight: number;
  cycle: () => void | Promise<void>;
}

export function kinds(cuda: typeof Cuda, f: Fixtures): Record<string, Kind> {
  const { arg } = cuda;
  const M = f.granularity;
  const all: Record<string, Kind> = {
    context: { weight: 0.01, cycle: () => {
      using ctx = cuda.Device.get(0).createContext();
      void ctx.apiVersion;
    } },
    stream: { weight: 1, cycle: () => {
      using s = cuda.Stream.create();
      s.synchronizeSync();
    } },
    event: { weight: 1, cycle: () => {
      using e = cuda.Event.create();
      e.record(f.stream);
      e.synchronizeSync();
    } },
    deviceBuffer: { weight: 1, cycle: () => {
      using b = cuda.DeviceBuffer.alloc(4096);
      b.fill(1, { stream: f.stream });
    } },
    pitchedBuffer: { weight: 1, cycle: () => {
      using b = cuda.DeviceBuffer.allocPitched(256, 4);
      void b.pitch;
    } },
    managedBuffer: { weight: 1, cycle: () => {
      using b = cuda.DeviceBuffer.allocManaged(4096);
      b.fill(2);
    } },
    asyncBuffer: { weight: 1, cycle: () => {
      using b = cuda.DeviceBuffer.allocAsync(4096, f.stream);
      b.fill(3, { stream: f.stream });
    } },
    pooledBuffer: { weight: 1, cycle: () => {
      using pool = cuda.MemoryPool.create();
      using b = cuda.DeviceBuffer.allocAsync(4096, f.stream, { pool });
      b.fill(4, { stream: f.stream });
    } },
    hostBuffer: { weight: 1, cycle: () => {
      using h = cuda.HostBuffer.alloc(4096);
      h.view(Uint8Array)[0] = 1;
      cuda.copy(f.buffer, h, { bytes: 64, stream: f.stream });
    } },
    registeredBuffer: { weight: 1, cycle: () => {
      using h = cuda.HostBuffer.register(new ArrayBuffer(4096));
      void h.devicePointer;
    } },
    copy: { weight: 1, cycle: () => {
      const bytes = new Uint8Array(256);
      cuda.copy(f.buffer, bytes, { stream: f.stream });
      cuda.copy(bytes, f.buffer, { bytes: 256 });
    } },
    graphAndExec: { weight: 1, cycle: () => {
      using g = cuda.Graph.create();
      const n = g.addFill(f.buffer, 5, { count: 64 });
      g.addKernel(f.kernel, { grid: 1, block: 1 }, [arg.ptr(f.buffer), arg.i32(1), arg.f64(2)], { after: [n] });
      using exec = g.instantiate();
      exec.launch(f.stream);
    } },
    graphAllocation: { weight: 1, cycle: () => {
      using g = cuda.Graph.create();
      const { node, allocation } = g.addAlloc(4096);
      g.addFree(allocation, { after: [node] });
      allocation.dispose();
    } },
    capture: { weight: 1, cycle: () => {
      using g = f.stream.capture((s) => {
        f.kernel.launch({ grid: 1, block: 1, stream: s }, [arg.ptr(f.buffer), arg.i32(1), arg.f64(2)]);
      });
      void g.nodeCount;
    } },
    userObject: { weight: 1, cycle: () => {
      using u = cuda.UserObject.create(() => undefined);
      f.graph.retainUserObject(u);
      f.graph.releaseUserObject(u);
    } },
    library: { weight: 1, cycle: () => {
      using lib = cuda.Library.load(f.code);
      using k = lib.kernel('k');
      k.launch({ grid: 1, block: 1, stream: f.stream }, [arg.ptr(f.buffer), arg.i32(1), arg.f64(2)]);
    } },
    module: { weight: 1, cycle: () => {
      using m = cuda.Module.load(f.code);
      using k = m.function('k');
      void k.params;
    } },
    kernelLaunch: { weight: 1, cycle: () => {
      f.kernel.launch({ grid: 1, block: 1, stream: f.stream }, [arg.ptr(f.buffer), arg.i32(1), arg.f64(2)]);
    } },
    preparedLaunch: { weight: 1, cycle: () => {
      using p = f.kernel.prepare({ grid: 1, block: 1, stream: f.stream }, ['ptr', 'i32', 'f64'], [f.buffer, 1, 2]);
      p.launch();
    } },
    physicalAllocation: { weight: 1, cycle: () => {
      using a = cuda.PhysicalAllocation.create(M);
      void a.properties();
    } },
    reservation: { weight: 1, cycle: () => {
      using r = cuda.AddressReservation.reserve(M);
      void r.address;
    } },
    mapping: { weight: 1, cycle: () => {
      using m = cuda.Mapping.alloc(M);
      cuda.copy(m, f.buffer, { bytes: 64, stream: f.stream });
    } },
    growable: { weight: 1, cycle: () => {
      using g = cuda.GrowableBuffer.create({ maxSize: 4 * M, size: M });
      g.resize(2 * M);
    } },
    sharedMemory: { weight: 1, cycle: async () => {
      using m = cuda.Mapping.alloc(M, { handleTypes: ['posixFileDescriptor'] });
      using exported = cuda.shareMemory(m);
      using opened = await cuda.openSharedMemory(exported.descriptor);
      void opened.address;
    } },
    exportedFd: { weight: 1, cycle: () => {
      using a = cuda.PhysicalAllocation.create(M, { handleTypes: ['posixFileDescriptor'] });
      using fd = a.exportFd();
      void fd.fd;
    } },
    fdChannel: { weight: 1, cycle: async () => {
      const accepted = f.server.accept({ timeoutMs: 5000 });
      using near = await cuda.FdChannel.connect(f.server.address, { timeoutMs: 5000 });
      using far = await accepted;
      await near.send({ hello: 1 }, [], { timeoutMs: 5000 });
      using message = await far.receive({ timeoutMs: 5000 });
      void message.payload;
    } },
    streamSynchronize: { weight: 1, cycle: async () => {
      f.buffer.fill(6, { count: 16, stream: f.stream });
      await f.stream.synchronize();
    } },
  };
  if (f.conditional) {
    all.conditionalHandle = { weight: 1, cycle: () => {
      using h = f.graph.conditionalHandle({ defaultValue: 1 });
      void h.value;
    } };
  }
  if (f.compile) {
    all.compile = { weight: 0.002, cycle: () => {
      void cuda.compile('extern "C" __global__ void f(int* p) { if (p) *p = 1; }', { name: 'soak.cu' }).code;
    } };
  }
  return all;
}

/**
 * The names of the kinds kinds() makes with these features, without a driver
 * (only the cycles touch the package): what a soak run must report.
 */
export function kindNames(features: Pick<Fixtures, 'compile' | 'conditional'>): string[] {
  return Object.keys(kinds({} as typeof Cuda, features as Fixtures));
}
