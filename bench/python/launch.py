"""Host time per launch of an empty kernel with 0, 4 and 16 arguments from
Python: the baseline of bench/launch.js in NVIDIA's bindings. The kernels come
from the CUBIN the JavaScript side compiled. Each figure is the median over
rounds of a batch's host time divided by the batch (the stream drained between
batches).

cuda.bindings, two ways: the arguments as a (values, ctypes types) tuple
packed by the binding at every launch ("0", "4", "16"), and a void** array
packed once and passed by address ("prepared0", ...), the closest to a
prepared launch. Without arguments both pass None: "0" and "prepared0" are
one measurement. cuda.core: launch(stream, config, kernel, *args), which packs
the arguments at every launch.

Usage: python3 launch.py <cubin> <batch> <rounds>"""
import ctypes
import sys

from common import SUCCESS, Results, check, drainer, driver, per_call, primary_context


def main():
    cubin, batch, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    results = Results()
    primary_context()
    stream = check(driver.cuStreamCreate(1))  # CU_STREAM_NON_BLOCKING
    library = check(driver.cuLibraryLoadFromFile(cubin.encode(), [], [], 0, [], [], 0))
    functions = {n: check(driver.cuKernelGetFunction(check(driver.cuLibraryGetKernel(library, f"empty{n}".encode()))))
                 for n in (0, 4, 16)}
    buffer = check(driver.cuMemAlloc(1024))
    base = int(buffer)
    drain = drainer(stream)

    # empty4(float* a, const float* b, float c, unsigned n)
    values4 = (base, base + 256, 2.0, 1000)
    types4 = (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_float, ctypes.c_uint)
    # empty16(4 pointers, 4 floats, 4 ints, 2 unsigned long longs, 2 doubles)
    values16 = (base, base + 64, base + 128, base + 192, 1.0, 2.0, 3.0, 4.0, 5, 6, 7, 8, 9, 10, 11.0, 12.0)
    types16 = (ctypes.c_void_p,) * 4 + (ctypes.c_float,) * 4 + (ctypes.c_int,) * 4 + (ctypes.c_ulonglong,) * 2 + \
        (ctypes.c_double,) * 2
    tuples = {4: (values4, types4), 16: (values16, types16)}

    # The same arguments packed once: ctypes values and a void** array of their addresses.
    held = []

    def packed(values, types):
        cells = [t(v) for v, t in zip(values, types)]
        array = (ctypes.c_void_p * len(cells))(*[ctypes.addressof(c) for c in cells])
        held.append((cells, array))
        return ctypes.addressof(array)

    prepacked = {4: packed(values4, types4), 16: packed(values16, types16)}
    launch = driver.cuLaunchKernel

    def launcher(function, params):
        def op(_):
            err, = launch(function, 1, 1, 1, 32, 1, 1, 0, stream, params, 0)
            if err != SUCCESS:
                raise RuntimeError(f"cuLaunchKernel: {err!r}")
        return op

    # Without arguments both ways pass None: the same call, measured once and stored under both keys.
    results.measure("bindings", "",
                    lambda: dict.fromkeys(("0", "prepared0"), per_call(launcher(functions[0], None), batch, rounds, drain)))
    for n in (4, 16):
        results.measure("bindings", str(n), lambda n=n: per_call(launcher(functions[n], tuples[n]), batch, rounds, drain))
        results.measure("bindings", f"prepared{n}",
                        lambda n=n: per_call(launcher(functions[n], prepacked[n]), batch, rounds, drain))

    core = results.core_module
    if core is not None:
        def measure_core():
            import numpy as np

            device = core.Device(0)
            device.set_current()
            core_stream = device.create_stream()
            code = core.ObjectCode.from_cubin(cubin)
            kernels = {n: code.get_kernel(f"empty{n}") for n in (0, 4, 16)}
            config = core.LaunchConfig(grid=1, block=32)
            # Python ints are pointers to cuda.core; scalars go as NumPy scalars of the exact type.
            args = {
                0: (),
                4: (base, base + 256, np.float32(2.0), np.uint32(1000)),
                16: (base, base + 64, base + 128, base + 192, *(np.float32(v) for v in (1, 2, 3, 4)),
                     *(np.int32(v) for v in (5, 6, 7, 8)), np.uint64(9), np.uint64(10), np.float64(11), np.float64(12)),
            }
            out = {}
            for n in (0, 4, 16):
                kernel, a = kernels[n], args[n]
                out[str(n)] = per_call(lambda _: core.launch(core_stream, config, kernel, *a), batch, rounds, core_stream.sync)
            core_stream.close()
            return out

        results.measure("core", "", measure_core)

    check(driver.cuMemFree(buffer))
    check(driver.cuStreamDestroy(stream))
    check(driver.cuLibraryUnload(library))
    results.emit()


if __name__ == "__main__":
    main()
