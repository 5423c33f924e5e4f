"""jitgemm.matmul from Python against torch.matmul on the GPU machine, in the same process:
  1. per-call cost on a small problem (64^3), where the launch is all there is, both into a preallocated output:
     wall time of many back-to-back calls divided by their number (bounded by the kernels' own time as well), and
     the host time to enqueue 200 calls on an idle GPU (the cost in the caller's thread; target: jitgemm within
     5 us of torch);
  2. the public shapes (bench/shapes/public*.csv, row-major C = A B): median of alternated, event-timed runs with
     the L2 flushed, jitgemm tuned first with the budget given.
Writes python_overhead.csv and python_shapes.csv into the output folder.

usage: python3 bench/python_overhead.py OUT_DIR [budget_seconds] [sets]
"""

import csv
import os
import statistics
import sys
import time

import torch

import jitgemm

DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16, "tf32": torch.float32}


def per_call_us(fn, calls):
    fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / calls * 1e6


def host_us(fn, calls):
    """Host time per call to enqueue `calls` calls on an idle GPU, not waiting for them: the cost a call adds in the
    caller's thread. Fewer calls than the launch queue holds, so no call waits for a free slot."""
    fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    elapsed = time.perf_counter() - start
    torch.cuda.synchronize()
    return elapsed / calls * 1e6


def overhead(out_dir):
    rows = []
    for name, dtype in (("f32", torch.float32), ("bf16", torch.bfloat16)):
        a = torch.randn(64, 64, device="cuda", dtype=dtype)
        b = torch.randn(64, 64, device="cuda", dtype=dtype)
        c = torch.empty(64, 64, device="cuda", dtype=dtype)
        jitgemm.matmul(a, b, c, tuning="now", budget_seconds=2)  # tuned and in memory before timing
        samples = {"torch": [], "jitgemm": [], "torch_host": [], "jitgemm_host": []}
        for _ in range(5):  # alternated rounds
            samples["torch"].append(per_call_us(lambda: torch.matmul(a, b, out=c), 2000))
            samples["jitgemm"].append(per_call_us(lambda: jitgemm.matmul(a, b, c), 2000))
            samples["torch_host"].append(host_us(lambda: torch.matmul(a, b, out=c), 200))
            samples["jitgemm_host"].append(host_us(lambda: jitgemm.matmul(a, b, c), 200))
        t, j = statistics.median(samples["torch"]), statistics.median(samples["jitgemm"])
        th, jh = statistics.median(samples["torch_host"]), statistics.median(samples["jitgemm_host"])
        rows.append({"dtype": name, "shape": "64x64x64", "torch_us_per_call": f"{t:.2f}",
                     "jitgemm_us_per_call": f"{j:.2f}", "difference_us": f"{j - t:.2f}",
                     "torch_host_us_per_call": f"{th:.2f}", "jitgemm_host_us_per_call": f"{jh:.2f}",
                     "host_difference_us": f"{jh - th:.2f}", "jitgemm_served_by": jitgemm.last_served_by()})
        print(f"per call, 64^3 {name}: back to back torch {t:.2f} us, jitgemm {j:.2f} us ({j - t:+.2f} us); "
              f"host time to enqueue torch {th:.2f} us, jitgemm {jh:.2f} us ({jh - th:+.2f} us)", flush=True)
    with open(os.path.join(out_dir, "python_overhead.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def timed_ms(fn, flush):
    flush.zero_()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop)


def shapes(out_dir, budget, sets):
    flush = torch.empty(256 * 1024 * 1024 // 4, device="cuda")  # larger than the H200's L2
    rows = []
    for s in sets:
        path = "bench/shapes/public.csv" if s == "f32" else f"bench/shapes/public_{s}.csv"
        with open(path) as f:
            entries = list(csv.DictReader(line for line in f if not line.startswith("#")))
        for e in entries:
            m, n, k = int(e["M"]), int(e["N"]), int(e["K"])
            dtype, tf32 = DTYPES[s], s == "tf32"
            a = torch.randn(m, k, device="cuda", dtype=dtype)
            b = torch.randn(k, n, device="cuda", dtype=dtype)
            c = torch.empty(m, n, device="cuda", dtype=dtype)
            jitgemm.matmul(a, b, c, tf32=tf32, tuning="now", budget_seconds=budget)
            torch.backends.cuda.matmul.allow_tf32 = tf32
            times = {"torch": [], "jitgemm": []}
            for _ in range(15):
                times["torch"].append(timed_ms(lambda: torch.matmul(a, b, out=c), flush))
                times["jitgemm"].append(timed_ms(lambda: jitgemm.matmul(a, b, c, tf32=tf32), flush))
            t, j = statistics.median(times["torch"]), statistics.median(times["jitgemm"])
            rows.append({"set": s, "name": e["name"], "m": m, "n": n, "k": k, "torch_ms": f"{t:.4f}",
                         "jitgemm_ms": f"{j:.4f}", "speedup": f"{t / j:.3f}",
                         "served_by": jitgemm.last_served_by()})
            print(f"{s} {e['name']}: torch {t:.4f} ms, jitgemm {j:.4f} ms ({t / j:.2f}x)", flush=True)
    torch.backends.cuda.matmul.allow_tf32 = False
    if not rows:
        return
    with open(os.path.join(out_dir, "python_shapes.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    overhead(out)
    shapes(out, float(sys.argv[2]) if len(sys.argv) > 2 else 2.0,
           sys.argv[3].split() if len(sys.argv) > 3 else ["bf16", "f32"])
