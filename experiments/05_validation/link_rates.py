#!/usr/bin/env python3
"""The pinned H2D rate a session's calibration gives the model, against the rate its own
measured runs moved their staged uploads at, per repeat (r1 ran first in the lease).

A staged upload is a copy on a GPU's h2d track named stage_upload_* of at least 2 GiB (the
pipelines' 4 GiB a, b and c from registered host memory) that no other H2D copy of that GPU
and no pinning call overlaps; its rate is bytes over its time. The calibration's rate is its
pcie.h2d.pinned bandwidth row of the largest size. The pageable rate likewise: the calibration's
pcie.h2d.pageable row of the largest size against the uploads (upload_*, 2 GiB or more, alone
on the link) of the runs whose policy is baseline. Runs of the held-back scenarios are left
out. Nothing here feeds the model: a difference is reported as a property of the calibration,
the runs or the machine.

usage: link_rates.py REPORT_JSON...   (`prestage validate` reports: each names its calibration and
  the measured runs of each scenario, and which scenarios are held back)
prints one Markdown table row per report (named by its folder): for pinned and for pageable,
the calibration's rate, the runs' median rate per repeat (GB/s), the runs' median over the
calibration's rate.
"""
import json
import os
import re
import statistics
import sys



def calibration_rate(path, kind="pinned"):
    text = open(path).read()
    m = re.search(r"\n  h2d:\n(?:    .*\n)*?    " + kind +
                  r":\n(?:      .*\n)*?      bandwidth:\n((?:        - \{.*\n)+)", text)
    if not m:
        sys.exit(f"link_rates: {path}: no pcie.h2d.{kind}.bandwidth rows")
    rows = re.findall(r"bytes: (\d+), value: ([0-9.e+-]+)", m.group(1))
    return float(max(rows, key=lambda r: int(r[0]))[1])


def alone(e, h2d, pinning):
    """No other H2D copy of its GPU and no pinning call overlaps copy e (a copy issued during
    another thread's pinning call waits for the driver, and its events then include the wait:
    20-29 GB/s in session h's naive rows)."""
    if any(o is not e and o["track"] == e["track"] and o["t_start"] < e["t_end"]
           and o["t_end"] > e["t_start"] for o in h2d):
        return False
    return not any(o["t_start"] < e["t_end"] and o["t_end"] > e["t_start"] for o in pinning)


def run_rates(run_dirs):
    """{repeat: [B/s]} of the staged (pinned) uploads, and of the pageable uploads (upload_* of
    2 GiB or more in runs of the baseline policy, which uploads pageable memory in the lock)."""
    pinned, pageable = {}, {}
    for run in sorted(run_dirs):
        repeat = run.rstrip("/").split("__")[-1]
        baseline = json.load(open(os.path.join(run, "manifest.json"))).get("policy") == "baseline"
        events = [json.loads(line) for line in open(os.path.join(run, "events.jsonl"))]
        h2d = [e for e in events if e["track"].endswith("/h2d") and e["t_end"] > e["t_start"]]
        pinning = [e for e in events if e["kind"] in ("pin", "unpin")]
        for e in h2d:
            if e.get("bytes", 0) < 2 << 30 or not alone(e, h2d, pinning):
                continue
            rate = e["bytes"] / (e["t_end"] - e["t_start"])
            if e["name"].startswith("stage_upload"):
                pinned.setdefault(repeat, []).append(rate)
            elif baseline and e["name"].startswith("upload_"):
                pageable.setdefault(repeat, []).append(rate)
    return pinned, pageable


def cells(cal_rate, by_repeat, what):
    every = [r for rs in by_repeat.values() for r in rs]
    if not every:
        return f"{cal_rate / 1e9:.1f} | no {what} of 2 GiB or more alone on the link | -"
    per = ", ".join(f"{k} {statistics.median(v) / 1e9:.1f} ({len(v)})"
                    for k, v in sorted(by_repeat.items()) if v)
    return f"{cal_rate / 1e9:.1f} | {per} | {statistics.median(every) / cal_rate:.2f}"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        report = json.load(open(path))
        held = {sc["scenario"] for sc in report["scenarios"] if sc.get("held_back")}
        sources = [src for src in report["sources"] if src["scenario"] not in held]
        cals = {src["calibration"] for src in report["sources"]}
        if len(cals) != 1:
            sys.exit(f"link_rates: {path}: expected one calibration, found {sorted(cals)}")
        cal = cals.pop()
        pinned, pageable = run_rates([run for src in sources for run in src["measured_runs"]])
        name = os.path.basename(os.path.dirname(os.path.abspath(path)))
        print(f"| {name} | {cells(calibration_rate(cal), pinned, 'staged upload')} | "
              f"{cells(calibration_rate(cal, 'pageable'), pageable, 'pageable upload')} |")


if __name__ == "__main__":
    main()
