"""Host time per call of events, streams and stream-ordered memory from
Python, and the latency of a blocking wait: the baseline of bench/calls.js
and bench/wait-latency.js in NVIDIA's bindings, as bench/c/calls.c does them:
  eventRecordQuery     record + query of an event without timing
  streamCreateDestroy  create (non-blocking) + destroy
  allocFreeAsync       stream-ordered allocation of 256 bytes + its free
  blockingWait         a 4-byte fill + stream synchronize (cuda.bindings only)
cuda.core does them as stream.record(event) + event.is_done,
device.create_stream() + close(), device.allocate(256, stream=) + close(stream).

Usage: python3 calls.py <batch> <rounds> [calls]: the per-call figures
(default), or python3 calls.py <batch> <waits> wait: the blocking wait, over
<waits> single waits."""
import statistics
import sys

from common import SUCCESS, Results, check, drainer, driver, now, per_call, primary_context

NOT_READY = driver.CUresult.CUDA_ERROR_NOT_READY


def main():
    batch = int(sys.argv[1])
    # The second argument: rounds of the per-call figures, or how many waits.
    rounds = waits = int(sys.argv[2])
    wait_only = len(sys.argv) > 3 and sys.argv[3] == "wait"
    results = Results()
    primary_context()
    stream = check(driver.cuStreamCreate(1))  # CU_STREAM_NON_BLOCKING
    event = check(driver.cuEventCreate(2))  # CU_EVENT_DISABLE_TIMING
    word = check(driver.cuMemAlloc(4))
    drain = drainer(stream)

    record, query = driver.cuEventRecord, driver.cuEventQuery

    def event_record_query(_):
        err, = record(event, stream)
        if err != SUCCESS:
            raise RuntimeError(f"cuEventRecord: {err!r}")
        err, = query(event)
        if err != SUCCESS and err != NOT_READY:
            raise RuntimeError(f"cuEventQuery: {err!r}")

    create, destroy = driver.cuStreamCreate, driver.cuStreamDestroy

    def stream_create_destroy(_):
        err, s = create(1)
        if err != SUCCESS:
            raise RuntimeError(f"cuStreamCreate: {err!r}")
        err, = destroy(s)
        if err != SUCCESS:
            raise RuntimeError(f"cuStreamDestroy: {err!r}")

    alloc, free = driver.cuMemAllocAsync, driver.cuMemFreeAsync

    def alloc_free(_):
        err, p = alloc(256, stream)
        if err != SUCCESS:
            raise RuntimeError(f"cuMemAllocAsync: {err!r}")
        err, = free(p, stream)
        if err != SUCCESS:
            raise RuntimeError(f"cuMemFreeAsync: {err!r}")

    def blocking_wait():
        times = []
        for i in range(waits + 100):
            t0 = now()
            check(driver.cuMemsetD8Async(word, i & 0xFF, 4, stream))
            check(driver.cuStreamSynchronize(stream))
            if i >= 100:
                times.append(now() - t0)
        return statistics.median(times)

    if wait_only:
        results.measure("bindings", "blockingWait", blocking_wait)
    else:
        results.measure("bindings", "eventRecordQuery", lambda: per_call(event_record_query, batch, rounds, drain))
        results.measure("bindings", "streamCreateDestroy", lambda: per_call(stream_create_destroy, batch, rounds, drain))
        results.measure("bindings", "allocFreeAsync", lambda: per_call(alloc_free, batch, rounds, drain))

    core = results.core_module
    if core is not None and not wait_only:
        device = core.Device(0)
        device.set_current()
        core_stream = device.create_stream()
        core_event = device.create_event()

        def core_record_query(_):
            core_stream.record(core_event)
            return core_event.is_done

        results.measure("core", "eventRecordQuery", lambda: per_call(core_record_query, batch, rounds, core_stream.sync))
        results.measure("core", "streamCreateDestroy",
                        lambda: per_call(lambda _: device.create_stream().close(), batch, rounds, core_stream.sync))
        results.measure("core", "allocFreeAsync",
                        lambda: per_call(lambda _: device.allocate(256, stream=core_stream).close(core_stream), batch, rounds,
                                         core_stream.sync))
        core_event.close()
        core_stream.close()

    check(driver.cuMemFree(word))
    check(driver.cuEventDestroy(event))
    check(driver.cuStreamDestroy(stream))
    results.emit()


if __name__ == "__main__":
    main()
