#!/usr/bin/env python3
"""The pinned H2D rate a session's calibration gives the model, against the rate its own
measured runs moved their staged uploads at, per repeat (r1 ran first in the lease).

A staged upload is a copy on a GPU's h2d track named stage_upload_* of at least 2 GiB (the
pipelines' 4 GiB a, b and c from registered host memory) that no other H2D copy of that GPU
and no pinning call overlaps; its rate is bytes over its time. The
calibration's rate is its pcie.h2d.pinned bandwidth row of the largest size. Nothing here feeds
the model: a difference is reported as a property of the calibration, the runs or the machine.

usage: link_rates.py NAME RUNS_DIR CALIBRATION [NAME RUNS_DIR CALIBRATION ...]
prints one Markdown table row per session: name, calibration's rate, the runs' median rate per
repeat (GB/s), and the runs' median over the calibration's rate.
"""
import glob
import json
import os
import re
import statistics
import sys


def calibration_rate(path):
    text = open(path).read()
    m = re.search(r"\n  h2d:\n    pinned:\n(?:      .*\n)*?      bandwidth:\n((?:        - \{.*\n)+)",
                  text)
    if not m:
        sys.exit(f"link_rates: {path}: no pcie.h2d.pinned.bandwidth rows")
    rows = re.findall(r"bytes: (\d+), value: ([0-9.e+-]+)", m.group(1))
    return float(max(rows, key=lambda r: int(r[0]))[1])


def run_rates(runs_dir):
    by_repeat = {}
    for path in sorted(glob.glob(os.path.join(runs_dir, "*", "events.jsonl"))):
        repeat = path.split("__")[-1].split("/")[0]
        events = [json.loads(line) for line in open(path)]
        h2d = [e for e in events if e["track"].endswith("/h2d") and e["t_end"] > e["t_start"]]
        pinning = [e for e in events if e["kind"] in ("pin", "unpin")]
        rates = []
        for e in h2d:
            if not (e["name"].startswith("stage_upload") and e.get("bytes", 0) >= 2 << 30):
                continue
            # Alone on its GPU's link (no other H2D copy overlaps it) and beside no pinning call
            # (a copy issued during another thread's pinning call waits for the driver, and its
            # events then include the wait: 20-29 GB/s in session h's naive rows).
            if any(o is not e and o["track"] == e["track"] and o["t_start"] < e["t_end"]
                   and o["t_end"] > e["t_start"] for o in h2d):
                continue
            if any(o["kind"] in ("pin", "unpin") and o["t_start"] < e["t_end"]
                   and o["t_end"] > e["t_start"] for o in pinning):
                continue
            rates.append(e["bytes"] / (e["t_end"] - e["t_start"]))
        by_repeat.setdefault(repeat, []).extend(rates)
    return by_repeat


def main():
    args = sys.argv[1:]
    if not args or len(args) % 3:
        sys.exit(__doc__)
    for i in range(0, len(args), 3):
        name, runs_dir, cal = args[i:i + 3]
        cal_rate = calibration_rate(cal)
        by_repeat = run_rates(runs_dir)
        every = [r for rs in by_repeat.values() for r in rs]
        if not every:
            print(f"| {name} | {cal_rate / 1e9:.1f} | no staged upload of 2 GiB or more alone on the link | - |")
            continue
        per = ", ".join(f"{k} {statistics.median(v) / 1e9:.1f} ({len(v)})"
                        for k, v in sorted(by_repeat.items()) if v)
        ratio = statistics.median(every) / cal_rate
        print(f"| {name} | {cal_rate / 1e9:.1f} | {per} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
