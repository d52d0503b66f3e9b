"""Shared by the Python baselines of bench/: finding NVIDIA's bindings,
timing, and printing one JSON object, as the C baselines do.

Each baseline measures the same operations as its JavaScript and C
counterparts, through cuda.bindings (``from cuda.bindings import driver``)
and, where it has them, cuda.core (found as ``cuda.core`` or, in older
releases, ``cuda.core.experimental``). A measure that fails is left out of
the figures and its error is reported under "errors", so that one API
difference between releases does not lose the rest."""
import importlib
import json
import statistics
import sys
import time
import traceback

from cuda.bindings import driver

SUCCESS = driver.CUresult.CUDA_SUCCESS
now = time.perf_counter_ns


def check(result):
    """The value(s) of a cuda.bindings call, or a RuntimeError for its error."""
    err = result[0]
    if err != SUCCESS:
        raise RuntimeError(f"CUDA error {int(err)} ({err!r})")
    if len(result) == 1:
        return None
    return result[1] if len(result) == 2 else result[1:]


def find_core():
    """(module, import path) of cuda.core, or (None, why not)."""
    reasons = []
    for name in ("cuda.core", "cuda.core.experimental"):
        try:
            module = importlib.import_module(name)
        except Exception as error:  # noqa: BLE001 - any import failure means "not this path"
            reasons.append(f"{name}: {error}")
            continue
        if hasattr(module, "Device") and hasattr(module, "launch"):
            return module, name
        reasons.append(f"{name}: has no Device/launch")
    return None, "; ".join(reasons)


def versions(core_module):
    """Versions of the packages measured."""
    out = {"python": sys.version.split()[0]}
    try:
        import cuda.bindings

        out["cuda.bindings"] = getattr(cuda.bindings, "__version__", "unknown")
    except Exception:  # noqa: BLE001
        pass
    if core_module is not None:
        try:
            import cuda.core

            out["cuda.core"] = getattr(cuda.core, "__version__", "unknown")
        except Exception:  # noqa: BLE001
            pass
    return out


def primary_context():
    """Makes device 0's primary context current (as the C baselines do) and returns it."""
    check(driver.cuInit(0))
    device = check(driver.cuDeviceGet(0))
    context = check(driver.cuDevicePrimaryCtxRetain(device))
    check(driver.cuCtxSetCurrent(context))
    return context


def drainer(stream):
    """A drain for per_call: synchronizes a cuda.bindings stream."""
    return lambda: check(driver.cuStreamSynchronize(stream))


def build_time(build, destroy, n, builds=7):
    """The median nanoseconds of builds of a chain of n (build(n) -> (graph,
    ns)), each destroyed after: bench/c/graph.c buildTime does the same."""
    times = []
    for _ in range(builds):
        graph, ns = build(n)
        destroy(graph)
        times.append(ns)
    return statistics.median(times)


def per_call(op, batch, rounds, drain=None):
    """Median nanoseconds per call of op(i) over rounds of batch calls, after
    a warm-up of batch * 10 calls; drain() (when given) runs after the warm-up
    and after every round, outside the timing. bench/common.js perCall and
    bench/c/timing.h perBatch do the same."""
    for i in range(batch * 10):
        op(i)
    if drain:
        drain()
    times = []
    for _ in range(rounds):
        t0 = now()
        for i in range(batch):
            op(i)
        times.append((now() - t0) / batch)
        if drain:
            drain()
    return statistics.median(times)


class Results:
    """The figures of one baseline run, by API, plus the errors of failed measures."""

    def __init__(self):
        self.core_module, self.core_path = find_core()
        self.out = {
            "bindings": {},
            "core": {},
            "coreImport": self.core_path if self.core_module is not None else None,
            "coreMissing": None if self.core_module is not None else self.core_path,
            "versions": versions(self.core_module),
            "errors": {},
        }

    def measure(self, api, key, fn):
        """Stores fn()'s figure under out[api][key]; a failure is recorded, not raised."""
        if api == "core" and self.core_module is None:
            return
        try:
            value = fn()
            if isinstance(value, dict):
                self.out[api].update({f"{key}.{k}" if key else k: v for k, v in value.items()})
            else:
                self.out[api][key] = value
        except Exception as error:  # noqa: BLE001 - reported, the rest goes on
            self.out["errors"][f"{api}.{key}"] = f"{type(error).__name__}: {error}"
            traceback.print_exc(file=sys.stderr)

    def emit(self):
        print(json.dumps(self.out))
