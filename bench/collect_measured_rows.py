#!/usr/bin/env python3
"""Collects the fixed-row measurements of `bench/gpu-run.sh ... rows` logs into one file of measured rows: the median
time of each named configuration on each problem, with the GPU's measured ceilings (medians over the logs) in its
header. The cost model is scored against such files without a GPU (tests/support/measured_rows.h, `cost_table score`):
how often it orders two measured configurations of one problem as the GPU did.

    bench/collect_measured_rows.py LOG... > bench/results/DATE-GPU-measured-rows.txt

Only logs of one GPU, and of kernels as they are on main (not a branch's), belong in one file.
"""
import re
import statistics
import sys
from collections import defaultdict

# "1 nn wgmma_64x64x64_c1_s8_g8 x1 4096x128x4096   bf16->bf16   wgmma_64x64x64_c1_s8_g8   0.0166   258.6 ..."
ROW = re.compile(r"^\d+ (nn|nt|tn|tt) (\S+) x(\d+) (\d+)x(\d+)x(\d+)\s+(\w+)->(\w+)\s+(\S+)\s+([\d.]+)\s")
RAN_COLUMN = 35  # characters of the configuration that ran, as `jitgemm bench` prints it
DEVICE = re.compile(r"^device 0: (.+)$")
CLOCKS = re.compile(r"clocks\s+SM (\d+) MHz")
CEILINGS = {
    "copy": re.compile(r"copy bandwidth\s+([\d.]+) TB/s"),
    "fp32": re.compile(r"fp32 FFMA\s+([\d.]+) TFLOP/s"),
    "f16": re.compile(r"fp16 mma.sync\s+([\d.]+) TFLOP/s"),
    "bf16": re.compile(r"bf16 mma.sync\s+([\d.]+) TFLOP/s"),
    "tf32": re.compile(r"tf32 mma.sync\s+([\d.]+) TFLOP/s"),
}


def main(paths):
    times = defaultdict(list)
    sources = defaultdict(set)
    ceilings = defaultdict(list)
    devices, clocks = set(), set()
    for path in paths:
        with open(path) as log:
            for line in log:
                line = line.rstrip("\n")
                if m := DEVICE.match(line):
                    devices.add(m.group(1))
                if m := CLOCKS.search(line):
                    clocks.add(int(m.group(1)))
                for name, pattern in CEILINGS.items():
                    if m := pattern.search(line):
                        ceilings[name].append(float(m.group(1)))
                if m := ROW.match(line):
                    layout, config, batch, M, N, K, a_type, c_type, ran, ms = m.groups()
                    # The table prints the configuration it ran cut to its column (tools/cli/bench_command.cpp).
                    if ran != config[:RAN_COLUMN]:
                        continue  # the row named one configuration and ran another: not a measurement of it
                    key = (int(M), int(N), int(K), layout[0], layout[1], a_type, c_type, int(batch), config)
                    times[key].append(float(ms) * 1e3)
                    sources[key].add(path.rsplit("/", 1)[-1])
    if len(devices) != 1 or len(clocks) != 1 or any(name not in ceilings for name in CEILINGS):
        sys.exit(f"the logs must be of one GPU with its measured ceilings (devices {sorted(devices)}, "
                 f"clocks {sorted(clocks)})")
    print(f"# Fixed-row measurements (median microseconds of each configuration's runs, column-major, minimum leading")
    print(f"# dimensions, alpha 1, beta 0) collected by bench/collect_measured_rows.py from:")
    for path in sorted({s for v in sources.values() for s in v}):
        print(f"#   bench/results/{path}")
    print(f"device {devices.pop()}")
    print(f"sm_clock_mhz {clocks.pop()}")
    print(f"copy_tb_per_s {statistics.median(ceilings['copy'])}")
    for name in ("fp32", "f16", "bf16", "tf32"):
        print(f"{name}_tflops {statistics.median(ceilings[name])}")
    print("# m n k transa transb a_type c_type batch config microseconds runs")
    for key in sorted(times):
        m, n, k, ta, tb, a_type, c_type, batch, config = key
        print(f"{m} {n} {k} {ta} {tb} {a_type} {c_type} {batch} {config} "
              f"{statistics.median(times[key]):.2f} {len(times[key])}")


if __name__ == "__main__":
    main(sys.argv[1:])
