#!/usr/bin/env python3
"""Search time and search quality from two `jitgemm tune --json` runs of one manifest in fresh caches: the short one
(the default budget) and the long one. Per problem: the short search's seconds and whether it stopped complete, and
its winner's time against the long search's winner (both as the searches recorded them: median of alternated runs);
then where each short search's time went (stages, as `tune --json` reports them).

    bench/search_summary.py search_10.json search_60.json [more of the long search's files ...]

The long search may come in several files (one per row, as bench/gpu-run.sh searchcmp runs it so that a row cut short
by the call's time limit loses only itself); their problems are taken together.
"""
import json
import statistics
import sys


def problems(*paths):
    found = {}
    for path in paths:
        try:
            with open(path) as f:
                found.update({p["key"]: p for p in json.load(f)["problems"]})
        except (OSError, ValueError, KeyError) as error:  # a search cut off or failed before it wrote its file
            print(f"{path}: {error}", file=sys.stderr)
    return found


def main():
    short, long = problems(sys.argv[1]), problems(*sys.argv[2:])
    seconds, ratios = [], []
    print(f"{'problem':34} {'short s':>8} {'complete':>8} {'short ms':>9} {'long ms':>9} {'long/short':>10}  configs")
    for key, s in short.items():
        l = long.get(key)
        if s["status"] not in ("tuned", "already-tuned") or l is None or l["status"] not in ("tuned", "already-tuned"):
            print(f"{s['name'][:34]:34} {s['status']} / {l['status'] if l else 'missing'}")
            continue
        seconds.append(s["seconds"])
        ratio = l["time_ms"] / s["time_ms"]
        ratios.append(ratio)
        print(f"{s['name'][:34]:34} {s['seconds']:8.2f} {str(s['search_complete']):>8} {s['time_ms']:9.4f} "
              f"{l['time_ms']:9.4f} {ratio:10.3f}  {s['config']} / {l['config']}")
    print("where the short searches' time went (s):")
    for key, s in short.items():
        t = s.get("times")
        if t:
            print(f"  {s['name'][:34]:34} setup {t['setup']:.2f}, ranking {t['ranking']:.2f}, waiting for compiles "
                  f"{t['compile_wait']:.2f} (then {t.get('draining', 0.0):.2f} after a stop), measuring "
                  f"{t['measuring']:.2f}, finalists {t['finalists']:.2f}, "
                  f"recording {t['recording']:.2f}; NVRTC {t['nvrtc_seconds']:.1f} over {t['compile_threads']} threads")
    if seconds:
        print(f"median short search {statistics.median(seconds):.2f} s (max {max(seconds):.2f}); winners within 3% of "
              f"the long search's: {sum(r >= 0.97 for r in ratios)} of {len(ratios)} (worst {min(ratios):.3f})")


if __name__ == "__main__":
    main()
