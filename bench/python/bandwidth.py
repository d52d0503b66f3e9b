"""Host<->device copy bandwidth from Python: the baseline of
bench/copy-bandwidth.js in NVIDIA's bindings, as bench/c/bandwidth.c does it:
synchronous cuMemcpyHtoD / cuMemcpyDtoH between a device buffer and pinned
(cuMemAllocHost) or pageable (a ctypes buffer) host memory, for each size;
the median over repetitions of one copy's bandwidth (repetitions fall with
the size as in the C baseline). From pageable memory cuMemcpyHtoD returns
once the bytes are staged, before the DMA has run, so the legacy stream is
synchronized after each such copy, inside the timing, as the C baseline
does (and as a JavaScript copy without a stream returns once they have
landed). cuda.core is not measured here: the figure
is the hardware's, and what a binding adds shows in the per-call benchmarks.

Usage: python3 bandwidth.py <pinned|pageable> <repetitions at 256 MiB> <bytes>...
Prints {"bindings": {"<bytes>.h2d": GB/s, "<bytes>.d2h": GB/s, ...}, ...}."""
import ctypes
import statistics
import sys

from common import Results, check, driver, now, primary_context


def repetitions_for(size, base):
    scaled = base * (256 << 20) / size
    return 2000 if scaled > 2000 else base if scaled < base else int(scaled)


def main():
    kind, base, sizes = sys.argv[1], int(sys.argv[2]), [int(a) for a in sys.argv[3:]]
    results = Results()
    primary_context()
    largest = max(sizes)
    device = check(driver.cuMemAlloc(largest))
    if kind == "pinned":
        host = check(driver.cuMemAllocHost(largest))
        address = int(host)
    else:
        host = ctypes.create_string_buffer(largest)
        address = ctypes.addressof(host)
    ctypes.memset(address, 1, largest)
    to_device, to_host = driver.cuMemcpyHtoD, driver.cuMemcpyDtoH
    legacy = driver.CUstream(1)  # CU_STREAM_LEGACY, ((CUstream)0x1) in cuda.h
    staged = kind == "pageable"

    def measure(size):
        reps = repetitions_for(size, base)
        check(to_device(device, address, size))
        check(to_host(address, device, size))
        h2d, d2h = [], []
        for _ in range(reps):
            t0 = now()
            check(to_device(device, address, size))
            if staged:
                check(driver.cuStreamSynchronize(legacy))
            t1 = now()
            check(to_host(address, device, size))
            t2 = now()
            h2d.append(size / (t1 - t0))
            d2h.append(size / (t2 - t1))
        return {"h2d": statistics.median(h2d), "d2h": statistics.median(d2h)}

    for size in sizes:
        results.measure("bindings", str(size), lambda size=size: measure(size))
    if kind == "pinned":
        check(driver.cuMemFreeHost(host))
    check(driver.cuMemFree(device))
    results.emit()


if __name__ == "__main__":
    main()
