"""The service benchmark in cuda.core: the baseline of bench/service.js, which
says what a request does and how its result is checked.

cuda.core has no awaitable stream: its waits (Stream.sync) block, so its users
serve requests in flight from threads, as here: one thread per request in
flight (asyncio would hand each blocking wait to a thread of its executor
anyway, with the event loop's hand-offs added). Each thread has its own slot:
a stream from Device.create_stream(), pinned input and output from
LegacyPinnedMemoryResource (cuMemAllocHost, as the C and JavaScript sides
allocate), a device buffer from Device.allocate, and a Graph of the 20-node
chain of `affine` captured with a GraphBuilder. A request: its tags written
into the pinned input (through a NumPy view, which cuda.core's users have
since cuda.core needs NumPy), Buffer.copy_from, Graph.launch, Buffer.copy_to
and Stream.sync. Threads take request numbers from a shared counter and start
together at a barrier.

Usage: python3 service.py <cubin> <requests> <concurrency>...
Prints {"core": {"N.throughput": requests/s, "N.p50": ns, "N.p99": ns, ...}, ...};
a wrong result word is an error of that concurrency's measure."""
import ctypes
import itertools
import math
import sys
import threading

from common import Results, now

WORDS = 1 << 18
NODES = 20
BLOCK = 256
TAGS = 64
STRIDE = WORDS // TAGS
MASK = 0xFFFFFFFF


def step(k):
    """Node k's constants (a, b): it computes x * a + b."""
    return 2 * k + 3, (k + 1) * 16777619


def quantile(sorted_values, q):
    """The q-quantile of sorted values (nearest rank), as service.js takes it."""
    return sorted_values[max(0, math.ceil(q * len(sorted_values)) - 1)]


def main():
    cubin, requests, concurrencies = sys.argv[1], int(sys.argv[2]), [int(a) for a in sys.argv[3:]]
    results = Results()
    core = results.core_module
    if core is None:
        results.emit()
        return
    import numpy as np

    device = core.Device(0)
    device.set_current()
    kernel = core.ObjectCode.from_cubin(cubin).get_kernel("affine")
    config = core.LaunchConfig(grid=WORDS // BLOCK, block=BLOCK)
    pinned = core.LegacyPinnedMemoryResource()

    a_total, b_total = 1, 0
    for k in range(NODES):
        a, b = step(k)
        a_total, b_total = (a * a_total) & MASK, (a * b_total + b) & MASK

    def transform(x):
        """x * A + B (mod 2**32) for a uint32 array."""
        return ((x.astype(np.uint64) * a_total + b_total) & MASK).astype(np.uint32)

    indices = np.arange(WORDS, dtype=np.uint64)
    hashed = ((indices * 0x9E3779B1) & MASK).astype(np.uint32)
    expected = transform(hashed)
    tag_offsets = np.arange(TAGS, dtype=np.uint64)

    def host_view(buffer):
        return np.ctypeslib.as_array((ctypes.c_uint32 * WORDS).from_address(int(buffer.handle)))

    def make_slot():
        stream = device.create_stream()
        slot = {
            "stream": stream,
            "input": pinned.allocate(WORDS * 4),
            "output": pinned.allocate(WORDS * 4),
            "device": device.allocate(WORDS * 4, stream=stream),
        }
        slot["inputWords"], slot["outputWords"] = host_view(slot["input"]), host_view(slot["output"])
        slot["inputWords"][:] = hashed
        pointer = int(slot["device"].handle)
        builder = device.create_graph_builder()
        builder.begin_building()
        for k in range(NODES):
            a, b = step(k)
            core.launch(builder, config, kernel, pointer, np.uint32(a), np.uint32(b), np.uint32(WORDS))
        builder.end_building()
        slot["graph"], slot["builder"] = builder.complete(), builder
        stream.sync()
        return slot

    def check(slot, request, every):
        out = slot["outputWords"]
        want_tags = transform((request * TAGS + tag_offsets) & MASK)
        if every:
            want = expected.copy()
            want[::STRIDE] = want_tags
            bad = np.flatnonzero(out != want)
        else:
            bad = np.flatnonzero(out[::STRIDE] != want_tags) * STRIDE
            if not bad.size:
                bad = np.flatnonzero(out[STRIDE - 1::STRIDE] != expected[STRIDE - 1::STRIDE]) * STRIDE + STRIDE - 1
        if bad.size:
            i = int(bad[0])
            want_i = int(want_tags[i // STRIDE]) if i % STRIDE == 0 else int(expected[i])
            raise RuntimeError(f"service: request {request}: word {i} is {int(out[i])}, expected {want_i}")

    def serve(slots, first, count, full):
        """count requests from first, one thread per slot, with full the first
        of each checked at every word; (seconds, latencies)."""
        counter = itertools.count()
        latencies = [0] * count
        start = threading.Barrier(len(slots) + 1)
        failures = []

        def worker(slot):
            try:
                core.Device(0).set_current()  # the context current on this thread too
                stream, graph = slot["stream"], slot["graph"]
                dev, src, dst, words = slot["device"], slot["input"], slot["output"], slot["inputWords"]
                start.wait()
                every = full
                for i in counter:
                    if i >= count or failures:
                        return
                    request = first + i
                    t0 = now()
                    words[::STRIDE] = (request * TAGS + tag_offsets) & MASK
                    dev.copy_from(src, stream=stream)
                    graph.launch(stream)
                    dev.copy_to(dst, stream=stream)
                    stream.sync()
                    latencies[i] = now() - t0
                    check(slot, request, every)
                    every = False
            except BaseException as error:  # noqa: BLE001 - raised again on the main thread
                failures.append(error)
                start.abort()

        threads = [threading.Thread(target=worker, args=(slot,)) for slot in slots]
        for t in threads:
            t.start()
        try:
            start.wait()
        except threading.BrokenBarrierError:
            pass
        t0 = now()
        for t in threads:
            t.join()
        seconds = (now() - t0) / 1e9
        if failures:
            raise failures[0]
        return seconds, latencies

    slots = [make_slot() for _ in range(max(concurrencies))]

    def at(n):
        warmup = max(200, 4 * n)
        serve(slots[:n], 0, warmup, True)
        seconds, latencies = serve(slots[:n], warmup, requests, False)
        latencies.sort()
        return {"throughput": requests / seconds, "p50": quantile(latencies, 0.5), "p99": quantile(latencies, 0.99)}

    for n in concurrencies:
        results.measure("core", str(n), lambda n=n: at(n))
    for slot in slots:
        slot["graph"].close()
        slot["builder"].close()
        for key in ("device", "input", "output"):
            slot[key].close()
        slot["stream"].close()
    results.emit()


if __name__ == "__main__":
    main()
