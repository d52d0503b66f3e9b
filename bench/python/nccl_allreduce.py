"""All-reduce through torch.distributed (NCCL backend): the PyTorch baseline
of bench/nccl.js. Run as two processes, one GPU each (rank r on device r),
joined by init_method tcp://127.0.0.1:PORT; bench/nccl.js starts both with
NCCL_NVLS_ENABLE=0 in their environment.

The same measures as bench/c/nccl-allreduce.c, on one float32 tensor of the
largest size all-reduced in place (sum) on a side stream:
- bandwidth, for each size: iterations calls, then a stream sync, timed;
  after a warm-up; the median over repetitions; busbw = bytes / time * 2(n-1)/n.
- host time per call (4 KiB, no sync in the loop), as per_call of common.py
  does it: dist.all_reduce eagerly, and replay() of a CUDA graph holding one
  all_reduce (left out, with the error under "errors", where capture fails).
Usage: nccl_allreduce.py <rank> <port> <repetitions> <batch> <rounds> <bytes>...
Rank 0 prints {"busbw": {"<bytes>": GB/s}, "eager": ns, "captured": ns,
"versions": {...}, "errors": {...}}."""
import json
import os
import statistics
import sys
import time

import torch
import torch.distributed as dist

now = time.perf_counter_ns
SIZE = 2


def per_call(op, batch, rounds, drain):
    """Median nanoseconds per call of op() over rounds of batch calls, after a
    warm-up of batch * 10 calls; drain() after the warm-up and every round."""
    for _ in range(batch * 10):
        op()
    drain()
    times = []
    for _ in range(rounds):
        t0 = now()
        for _ in range(batch):
            op()
        times.append((now() - t0) / batch)
        drain()
    return statistics.median(times)


def stage(rank, what):
    """A progress line on stderr, so that a rank stuck in NCCL shows where."""
    print(f"[torch rank {rank}] {what}", file=sys.stderr, flush=True)


def nccl_version():
    """The NCCL torch was built with: a tuple in recent releases, a number in older ones."""
    version = torch.cuda.nccl.version()
    return ".".join(str(v) for v in version) if isinstance(version, tuple) else str(version)


def main():
    rank, port, reps, batch, rounds = (int(a) for a in sys.argv[1:6])
    sizes = [int(a) for a in sys.argv[6:]]
    if os.environ.get("NCCL_NVLS_ENABLE") != "0":
        sys.exit("set NCCL_NVLS_ENABLE=0: NVLink SHARP stays off")
    torch.cuda.set_device(rank)
    stage(rank, "init_process_group")
    dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=SIZE)
    stream = torch.cuda.Stream()
    data = torch.zeros(max(sizes) // 4, dtype=torch.float32, device="cuda")
    bus = 2 * (SIZE - 1) / SIZE
    out = {"busbw": {}, "errors": {},
           "versions": {"python": sys.version.split()[0], "torch": torch.__version__,
                        "nccl": nccl_version()}}
    with torch.cuda.stream(stream):
        for nbytes in sizes:
            stage(rank, f"bandwidth, {nbytes} bytes")
            view = data[: nbytes // 4]
            iterations = 50 if nbytes <= 1 << 20 else 10 if nbytes <= 64 << 20 else 2
            for _ in range(5):
                dist.all_reduce(view)
            stream.synchronize()
            gbs = []
            for _ in range(reps):
                t0 = now()
                for _ in range(iterations):
                    dist.all_reduce(view)
                stream.synchronize()
                gbs.append(nbytes / ((now() - t0) / iterations) * bus)
            out["busbw"][str(nbytes)] = statistics.median(gbs)

        small = data[:1024]
        stage(rank, "host time, eager")
        out["eager"] = per_call(lambda: dist.all_reduce(small), batch, rounds, stream.synchronize)
    stage(rank, "host time, captured")
    try:
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            dist.all_reduce(small)
        torch.cuda.synchronize()
        out["captured"] = per_call(graph.replay, batch, rounds, torch.cuda.synchronize)
    except Exception as error:  # noqa: BLE001 - reported, the other figures kept
        out["errors"]["captured"] = f"{type(error).__name__}: {error}"
    if rank == 0:
        print(json.dumps(out), flush=True)
    # No teardown: on the GPU host, torch's barrier after a captured all_reduce
    # never returned, and the figures are out. Both ranks are done with NCCL here.
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
