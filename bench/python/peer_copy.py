"""Peer-copy bandwidth between devices 0 and 1 from Python: the baseline of
bench/peer-copy.js in NVIDIA's bindings, as bench/c/peer-copy.c does it:
cuMemcpyPeerAsync between a buffer on each device, each way, on a
non-blocking stream of the source device, the stream synchronized after each
copy inside the timing; peer access enabled both ways where the devices
allow it. The median over repetitions of one copy's bandwidth (repetitions
fall with the size as in the C baseline). cuda.core is not measured here:
the figure is the link's, and what a binding adds shows in the per-call
benchmarks.

Usage: python3 peer_copy.py <repetitions at 256 MiB> <bytes>...
Prints {"bindings": {"<bytes>.0to1": GB/s, "<bytes>.1to0": GB/s, ...}, ...}."""
import statistics
import sys

from common import SUCCESS, Results, check, driver, now

ALREADY_ENABLED = driver.CUresult.CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED


def repetitions_for(size, base):
    scaled = base * (256 << 20) / size
    return 2000 if scaled > 2000 else base if scaled < base else int(scaled)


def main():
    base, sizes = int(sys.argv[1]), [int(a) for a in sys.argv[2:]]
    results = Results()
    check(driver.cuInit(0))
    devices = [check(driver.cuDeviceGet(k)) for k in range(2)]
    contexts = [check(driver.cuDevicePrimaryCtxRetain(d)) for d in devices]
    largest = max(sizes)
    buffers, streams = [], []
    for k in range(2):
        check(driver.cuCtxSetCurrent(contexts[k]))
        if check(driver.cuDeviceCanAccessPeer(devices[k], devices[1 - k])):
            (err,) = driver.cuCtxEnablePeerAccess(contexts[1 - k], 0)
            if err not in (SUCCESS, ALREADY_ENABLED):
                raise RuntimeError(f"cuCtxEnablePeerAccess: {err!r}")
        buffers.append(check(driver.cuMemAlloc(largest)))
        check(driver.cuMemsetD8(buffers[k], 1, largest))
        streams.append(check(driver.cuStreamCreate(1)))  # CU_STREAM_NON_BLOCKING
    copy, synchronize = driver.cuMemcpyPeerAsync, driver.cuStreamSynchronize

    def measure(size, src):
        dst = 1 - src
        check(driver.cuCtxSetCurrent(contexts[src]))
        args = (buffers[dst], contexts[dst], buffers[src], contexts[src], size, streams[src])
        check(copy(*args))  # warm-up
        check(synchronize(streams[src]))
        gbs = []
        for _ in range(repetitions_for(size, base)):
            t0 = now()
            check(copy(*args))
            check(synchronize(streams[src]))
            gbs.append(size / (now() - t0))
        return statistics.median(gbs)

    for size in sizes:
        results.measure("bindings", str(size), lambda size=size: {"0to1": measure(size, 0), "1to0": measure(size, 1)})
    for k in range(2):
        check(driver.cuCtxSetCurrent(contexts[k]))
        check(driver.cuStreamDestroy(streams[k]))
        check(driver.cuMemFree(buffers[k]))
        check(driver.cuDevicePrimaryCtxRelease(devices[k]))
    results.emit()


if __name__ == "__main__":
    main()
