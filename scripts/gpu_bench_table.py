#!/usr/bin/env python3
"""Markdown table from gpu_bench JSON files: time, target, floor, what limits it.

Usage: scripts/gpu_bench_table.py RUN.json [BASELINE.json]
With a baseline, a column shows the baseline's median for the same row.
"""
import json
import sys

# Issue 3's kernel targets and the sppark anchors (H200, same day; docs/gpu-performance.md,
# "Targets and anchors"), by (row name, log2 n).
TARGETS = {("g1_msm", 24): "<= 90", ("g1_msm", 26): "<= 330", ("g2_msm", 20): "<= 25",
           ("fr_ntt_forward", 27): "<= 40"}
SPPARK = {("g1_msm", 20): 20.5, ("g1_msm", 22): 53.1, ("g1_msm", 24): 154.9, ("g1_msm", 26): 558.5,
          ("g2_msm", 20): 46.7, ("g2_msm", 22): 137.6, ("fr_ntt_forward", 20): 0.28,
          ("fr_ntt_forward", 24): 4.78, ("fr_ntt_forward", 26): 23.8,
          ("fr_ntt_forward", 27): 44.4, ("fr_ntt_inverse", 27): 46.9,
          ("fr_ntt_coset_forward", 27): 46.4}


def main():
    run = json.load(open(sys.argv[1]))
    base = {}
    if len(sys.argv) > 2:
        for r in json.load(open(sys.argv[2]))["rows"]:
            base[(r["name"], r["log_n"])] = r["median_ms"]
    c = run["ceilings"]
    m = run["manifest"]
    print(f"{m['gpu']}, driver CUDA {m['cuda_driver']}, commit {m['commit']}, {m['date']}; "
          f"D2D {c['d2d_bandwidth_GBps']:.0f} GB/s, Fr {c['fr_mul_per_s_floor']:.3g}/s, "
          f"Fq {c['fq_mul_per_s_floor']:.3g}/s (floor rates)\n")
    head = "| row | n | median ms | " + ("before ms | " if base else "") + \
        "target ms | sppark ms | floor ms | x floor | limited by |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for r in run["rows"]:
        key = (r["name"], r["log_n"])
        lim = "compute (field products)" if r["floor_compute_ms"] >= r["floor_memory_ms"] \
            else "memory bandwidth"
        extra = f"{base[key]:.2f} | " if base and key in base else ("- | " if base else "")
        wb = f" c={r['window_bits']}" if "window_bits" in r else ""
        print(f"| {r['name']}{wb} | 2^{r['log_n']} | {r['median_ms']:.2f} | {extra}"
              f"{TARGETS.get(key, '-')} | {SPPARK.get(key, '-')} | {r['floor_ms']:.2f} | "
              f"{r['ratio_to_floor']:.2f} | {lim} |")


if __name__ == "__main__":
    main()
