"""The report as a browser draws it: `jitgemm report` of a bench file (session 14's Python bench on the H200, jitgemm
against torch.matmul), rendered by headless Chromium to a PNG, which must show the points of both (their colours,
spread over the plot), the roof, both axes and the legend beside the plot.

usage: check_screenshot.py JITGEMM_BINARY BENCH_JSON OUT_DIR
Exit 0: checked; 1: a check failed; 77: no Chromium here (ctest reports it skipped), unless
JITGEMM_TEST_CHROMIUM=required (CI installs Debian's chromium and sets it), where that fails.
"""

import os
import shutil
import struct
import subprocess
import sys
import zlib

# The colours of tools/report/roofline_report.cpp.
JITGEMM = (0x1F, 0x77, 0xB4)
CUBLAS = (0xFF, 0x7F, 0x0E)
ROOF = (0xD6, 0x27, 0x28)
AXIS = (0, 0, 0)


def read_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG")
    at, idat = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                raise ValueError(f"PNG of bit depth {depth}, colour type {colour}: not read here")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, at = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, up_left = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 0xFF
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def near(pixel, colour, tolerance=12):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def main():
    binary, bench, out_dir = sys.argv[1:4]
    browser = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)),
                   None)
    if browser is None:
        required = os.environ.get("JITGEMM_TEST_CHROMIUM") == "required"
        print("no Chromium here (Debian: apt-get install chromium)" + ("; JITGEMM_TEST_CHROMIUM=required" if required
                                                                        else ": skipped"))
        return 1 if required else 77
    os.makedirs(out_dir, exist_ok=True)
    html, png = os.path.join(out_dir, "report.html"), os.path.join(out_dir, "report.png")
    subprocess.run([binary, "report", "--bench", bench, "--output", html, "--force"], check=True,
                   env=dict(os.environ, JITGEMM_CACHE=os.path.join(out_dir, "no-cache.sqlite")))
    if os.path.exists(png):
        os.remove(png)
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=800,1000", "--screenshot=" + png, "file://" + os.path.abspath(html)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    width, height, rows = read_png(png)
    failures = []

    def where(colour):
        return [(x, y) for y, row in enumerate(rows) for x, p in enumerate(row) if near(p, colour)]

    jit, cub, roof = where(JITGEMM), where(CUBLAS), where(ROOF)
    # The points: many pixels of each, spread over the plot, not one blob.
    for name, pixels in (("jitgemm", jit), ("cuBLAS", cub)):
        plot = [(x, y) for x, y in pixels if x < 580]
        if len(plot) < 500:
            failures.append(f"{name} points: {len(plot)} pixels of their colour in the plots")
        elif max(x for x, _ in plot) - min(x for x, _ in plot) < 250:
            failures.append(f"{name} points are not spread across the intensity axis")
    if len([p for p in roof if p[0] < 580]) < 300:
        failures.append(f"roof: {len(roof)} pixels of its colour")
    # The legend, right of the plot area: a swatch of each colour there.
    for name, pixels in (("jitgemm", jit), ("cuBLAS", cub), ("roofline", roof)):
        if len([p for p in pixels if p[0] > 590]) < 20:
            failures.append(f"no {name} swatch in the legend right of the plot")
    # The axes: a black vertical run of at least 250 pixels and a horizontal one of at least 400.
    longest_column = max(max_run([near(rows[y][x], AXIS, 40) for y in range(height)]) for x in range(width // 4))
    longest_row = max(max_run([near(p, AXIS, 40) for p in row]) for row in rows)
    if longest_column < 250:
        failures.append(f"no y axis: the longest black vertical run is {longest_column} pixels")
    if longest_row < 400:
        failures.append(f"no x axis: the longest black horizontal run is {longest_row} pixels")
    print(f"{png}: {width}x{height}; {len(jit)} jitgemm, {len(cub)} cuBLAS, {len(roof)} roof pixels; axes "
          f"{longest_column} and {longest_row} pixels")
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


def max_run(flags):
    best = run = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


if __name__ == "__main__":
    sys.exit(main())
