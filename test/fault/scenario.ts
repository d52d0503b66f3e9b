// The work the fault-injection walk repeats: streams, events, plain, pinned and
// stream-ordered memory, copies and fills, a library and its kernel (plain and
// prepared launches), a built graph and a captured one, virtual memory that
// grows, and waits of every kind. Written as a careful user writes it (every
// handle in `using`), so that whatever the library leaves behind after a
// failure is the library's. Its result is the bytes of one buffer, which every
// run must get right.
import type * as Cuda from '../../lib';

/** The bytes `a` holds at the end: 16 sevens, then fives. */
export function expectedResult(): number[] {
  return Array.from({ length: 64 }, (_, i) => (i < 16 ? 7 : 5));
}

export async function scenario(cuda: typeof Cuda, code: string | Uint8Array): Promise<number[]> {
  const { arg } = cuda;
  using stream = cuda.Stream.create();
  using event = cuda.Event.create();
  using a = cuda.DeviceBuffer.alloc(4096);
  using scratch = cuda.DeviceBuffer.alloc(4096);
  using host = cuda.HostBuffer.alloc(4096);
  host.view(Uint8Array).fill(5);
  cuda.copy(a, host, { stream });
  a.fill(7, { count: 16, stream });
  using pooled = cuda.DeviceBuffer.allocAsync(1024, stream);
  cuda.copy(pooled, a, { bytes: 1024, stream });

  using library = cuda.Library.load(code);
  using kernel = library.kernel('k');
  kernel.launch({ grid: 1, block: 1, stream }, [arg.ptr(scratch), arg.i32(4), arg.f64(1)]);
  using prepared = kernel.prepare({ grid: 1, block: 1, stream }, ['ptr', 'i32', 'f64'], [scratch, 4, 2]);
  prepared.launch();

  using graph = cuda.Graph.create();
  const copyNode = graph.addCopy(scratch, pooled, { bytes: 256 });
  graph.addFill(scratch, 1, { offset: 512, count: 64 }, { after: [copyNode] });
  graph.addKernel(kernel, { grid: 1, block: 1 }, [arg.ptr(scratch), arg.i32(1), arg.f64(0)], { after: [copyNode] });
  using exec = graph.instantiate();
  exec.launch(stream);

  using captured = stream.capture((s) => {
    cuda.copy(scratch, pooled, { bytes: 64, dstOffset: 1024, stream: s });
    kernel.launch({ grid: 1, block: 1, stream: s }, [arg.ptr(scratch), arg.i32(2), arg.f64(3)]);
  });
  using capturedExec = captured.instantiate();
  capturedExec.launch(stream);

  const granularity = cuda.allocationGranularity();
  using mapping = cuda.Mapping.alloc(granularity);
  cuda.copy(mapping, a, { bytes: 64, stream });
  using growable = cuda.GrowableBuffer.create({ maxSize: 4 * granularity, size: granularity });
  growable.resize(3 * granularity);
  cuda.copy(growable, scratch, { bytes: 4096, stream });

  event.record(stream);
  await event.synchronize();
  await stream.synchronize();
  const out = new Uint8Array(64);
  cuda.copy(out, a, { bytes: 64 });
  return Array.from(out);
}
