#!/usr/bin/env python3
"""The driver's hand-off in the measured staging runs (sim/DECISIONS.md, 2026-12-07).

For every pinning call (cudaHostRegister / cudaHostUnregister of at least 50 ms) that returned
while a call of another thread was waiting for the driver (an allocation, free, trim or pinning
call that started more than 1 ms before the return and ended after it), counts the driver calls
(alloc, free, pin, unpin, trim) the returning thread made from its return until the waiter
returned: the holder's calls that went first. Grouped by the waiter's kind (a pinning call, or a
short call) and the holder's thread (the stager after a registration, the executor after an
unregistration). Rows of the held-back scenarios (experiments/05_validation/run.sh) are left out.

usage: handoffs.py [--json] [RUNS_GLOB]   (default: data/validation/*/runs/*/events.jsonl)
  --json: one object, per group (stager_pin_pinning, stager_pin_short, host_unpin_pinning,
  host_unpin_short): n, first0, first1, first2plus; and runs (papers/gen_numbers.sh reads it).
"""
import collections
import glob
import json
import re
import statistics
import sys

CALLS = ("alloc", "free", "pin", "unpin", "trim")


def held_back():
    text = open("experiments/05_validation/run.sh").read()
    m = re.search(r'^holdout="([^"]*)"', text, re.M)
    return set(m.group(1).split()) if m else set()


def handoffs(path):
    events = [json.loads(line) for line in open(path)]
    # The worker threads' tracks: gpuG/wW/stager and gpuG/wW/host.
    events = [e for e in events if re.fullmatch(r"gpu\d+/w\d+/(stager|host)", e["track"])]
    by_track = collections.defaultdict(list)
    for e in events:
        by_track[e["track"]].append(e)
    for p in events:
        if p["kind"] not in ("pin", "unpin") or p["t_end"] - p["t_start"] < 0.05:
            continue
        ret = p["t_end"]
        waiting = [e for e in events if e["track"] != p["track"] and e["kind"] in CALLS
                   and e["t_start"] < ret - 1e-3 and e["t_end"] > ret]
        if not waiting:
            continue
        w = min(waiting, key=lambda e: e["t_end"])
        first = [e for e in by_track[p["track"]] if e is not p and e["kind"] in CALLS
                 and e["t_start"] >= ret - 1e-6 and e["t_end"] <= w["t_end"]]
        yield {"holder": p["track"].rsplit("/", 1)[1], "holder_call": p["kind"],
               "waiter": "pinning" if w["kind"] in ("pin", "unpin") else "short",
               "holder_calls_first": len(first),
               "waiter_return_after_ms": (w["t_end"] - ret) * 1e3}


def main():
    args = sys.argv[1:]
    as_json = "--json" in args
    args = [a for a in args if a != "--json"]
    pattern = args[0] if args else "data/validation/*/runs/*/events.jsonl"
    skip = held_back()
    counts = collections.defaultdict(collections.Counter)
    latency = collections.defaultdict(list)
    runs = 0
    for path in sorted(glob.glob(pattern)):
        scenario = path.split("/")[-2].split("__")[0]
        if scenario in skip:
            continue
        runs += 1
        for h in handoffs(path):
            key = f"{h['holder']} after {h['holder_call']}, {h['waiter']} waiter"
            counts[key][h["holder_calls_first"]] += 1
            if h["waiter"] == "short":
                latency[key].append(h["waiter_return_after_ms"])
    if as_json:
        out = {"runs": runs}
        for key, c in counts.items():
            holder, rest = key.split(" after ")
            call, waiter = rest.split(", ")
            out[f"{holder}_{call}_{waiter.split()[0]}"] = {
                "n": sum(c.values()), "first0": c[0], "first1": c[1],
                "first2plus": sum(v for k, v in c.items() if k >= 2)}
        print(json.dumps(out, sort_keys=True))
        return
    print(f"runs: {runs} (held back left out: {len(skip)} scenarios)")
    for key in sorted(counts):
        c = counts[key]
        n = sum(c.values())
        dist = ", ".join(f"{k}: {v}" for k, v in sorted(c.items()))
        line = f"{key}: {n} hand-offs; holder's calls before the waiter returned -> {dist}"
        if latency[key]:
            line += f"; waiter returned {statistics.median(latency[key]):.2f} ms after (median)"
        print(line)


if __name__ == "__main__":
    main()
