"""Graphs from Python: the baseline of bench/graph.js in NVIDIA's bindings. A
chain of N empty-kernel nodes (empty0 from the CUBIN the JavaScript side
compiled): first the process's first build of a chain of the last N given
(cuda.bindings' first, then cuda.core's), then for each N given: build time,
instantiate time, whole-graph update
time (from a second graph of the same shape) and host time per launch (median
over rounds of a batch, the stream drained between batches); then the host
time of a kernel-node parameter update on an executable (a one-node graph of
empty4, a new argument each time).

cuda.bindings builds node by node with cuGraphAddKernelNode and updates nodes
with cuGraphExecKernelNodeSetParams. cuda.core builds by stream capture
(GraphBuilder: begin_building, launch, end_building), instantiates with
complete(), updates with Graph.update(builder); it has no per-node update of
an executable, so that figure is absent for it.

Usage: python3 graph.py <cubin> <nodes>...
Prints {"bindings": {"firstBuild": ns, "chains.N.build": ns, ..., "kernelNodeUpdate": ns}, "core": {...}, ...}."""
import ctypes
import sys

from common import SUCCESS, Results, build_time, check, drainer, driver, now, per_call, primary_context


def rounds_for(n):
    """(rounds, batch) of launches, as in graph.c."""
    return (30, 5) if n >= 1000 else (200, 50)


def main():
    cubin, sizes = sys.argv[1], [int(a) for a in sys.argv[2:]]
    results = Results()
    primary_context()
    stream = check(driver.cuStreamCreate(1))  # CU_STREAM_NON_BLOCKING
    library = check(driver.cuLibraryLoadFromFile(cubin.encode(), [], [], 0, [], [], 0))
    empty0 = check(driver.cuKernelGetFunction(check(driver.cuLibraryGetKernel(library, b"empty0"))))
    empty4 = check(driver.cuKernelGetFunction(check(driver.cuLibraryGetKernel(library, b"empty4"))))
    buffer = check(driver.cuMemAlloc(1024))
    drain = drainer(stream)

    def node_params(function, kernel_params):
        p = driver.CUDA_KERNEL_NODE_PARAMS()
        p.func = function
        p.gridDimX = p.gridDimY = p.gridDimZ = 1
        p.blockDimX, p.blockDimY, p.blockDimZ = 32, 1, 1
        p.sharedMemBytes = 0
        p.kernelParams = kernel_params
        return p

    def chain(n):
        p = node_params(empty0, 0)
        t0 = now()
        graph = check(driver.cuGraphCreate(0))
        previous = None
        for _ in range(n):
            previous = check(driver.cuGraphAddKernelNode(graph, [previous] if previous else None, 1 if previous else 0, p))
        return graph, now() - t0

    def destroy(graph):
        check(driver.cuGraphDestroy(graph))

    def first_build(build, release):
        graph, ns = build(sizes[-1])
        release(graph)
        return ns

    core = results.core_module
    if core is not None:
        device = core.Device(0)
        device.set_current()
        core_stream = device.create_stream()
        code = core.ObjectCode.from_cubin(cubin)
        kernel = code.get_kernel("empty0")
        config = core.LaunchConfig(grid=1, block=32)

        def captured(n):
            builder = device.create_graph_builder()
            t0 = now()
            builder.begin_building()
            for _ in range(n):
                core.launch(builder, config, kernel)
            builder.end_building()
            return builder, now() - t0

    # The process's first builds, before any other graph work, as the
    # JavaScript side times its own: cuda.bindings' first, then cuda.core's.
    results.measure("bindings", "firstBuild", lambda: first_build(chain, destroy))
    results.measure("core", "firstBuild", lambda: first_build(captured, lambda b: b.close()))

    def measure_bindings(n):
        rounds, batch = rounds_for(n)
        build = build_time(chain, destroy, n)
        graph, _ = chain(n)
        other, _ = chain(n)
        t0 = now()
        graph_exec = check(driver.cuGraphInstantiate(graph, 0))
        instantiate = now() - t0
        t0 = now()
        check(driver.cuGraphExecUpdate(graph_exec, other))
        update = now() - t0
        launch = driver.cuGraphLaunch

        def op(_):
            err, = launch(graph_exec, stream)
            if err != SUCCESS:
                raise RuntimeError(f"cuGraphLaunch: {err!r}")

        per_launch = per_call(op, batch, rounds, drain)
        check(driver.cuGraphExecDestroy(graph_exec))
        check(driver.cuGraphDestroy(graph))
        check(driver.cuGraphDestroy(other))
        return {"build": build, "instantiate": instantiate, "update": update, "launch": per_launch}

    for n in sizes:
        results.measure("bindings", f"chains.{n}", lambda n=n: measure_bindings(n))

    def measure_node_update():
        # empty4(float* a, const float* b, float c, unsigned n): a new n at every update.
        base = int(buffer)
        cells = [ctypes.c_void_p(base), ctypes.c_void_p(base + 256), ctypes.c_float(2.0), ctypes.c_uint(1000)]
        array = (ctypes.c_void_p * 4)(*[ctypes.addressof(c) for c in cells])
        p = node_params(empty4, ctypes.addressof(array))
        graph = check(driver.cuGraphCreate(0))
        node = check(driver.cuGraphAddKernelNode(graph, None, 0, p))
        graph_exec = check(driver.cuGraphInstantiate(graph, 0))
        set_params = driver.cuGraphExecKernelNodeSetParams
        n = cells[3]

        def op(i):
            n.value = i & 1023
            err, = set_params(graph_exec, node, p)
            if err != SUCCESS:
                raise RuntimeError(f"cuGraphExecKernelNodeSetParams: {err!r}")

        figure = per_call(op, 100, 300)
        check(driver.cuGraphExecDestroy(graph_exec))
        check(driver.cuGraphDestroy(graph))
        del array, cells
        return figure

    results.measure("bindings", "kernelNodeUpdate", measure_node_update)

    if core is not None:
        def measure_core(n):
            rounds, batch = rounds_for(n)
            build = build_time(captured, lambda b: b.close(), n)
            builder, _ = captured(n)
            other, _ = captured(n)
            t0 = now()
            graph = builder.complete()
            out = {"build": build, "instantiate": now() - t0}
            try:  # Graph.update came after the first releases: its absence costs only this figure
                t0 = now()
                graph.update(other)
                out["update"] = now() - t0
            except Exception as error:  # noqa: BLE001
                results.out["errors"][f"core.chains.{n}.update"] = f"{type(error).__name__}: {error}"
            out["launch"] = per_call(lambda _: graph.launch(core_stream), batch, rounds, core_stream.sync)
            graph.close()
            builder.close()
            other.close()
            return out

        for n in sizes:
            results.measure("core", f"chains.{n}", lambda n=n: measure_core(n))
        core_stream.close()

    check(driver.cuMemFree(buffer))
    check(driver.cuStreamDestroy(stream))
    check(driver.cuLibraryUnload(library))
    results.emit()


if __name__ == "__main__":
    main()
