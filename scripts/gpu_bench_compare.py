#!/usr/bin/env python3
"""Compares two sides of a gpu_bench A/B (scripts/gpu_bench_ab.sh).

Per row (name, log2 n): the median over each side's runs of the row's median_ms, the ratio B/A,
and each side's spread over its runs ((max - min) / median: the A-vs-A noise). Prints a Markdown
table (rows sorted by how far the ratio is from 1) and a summary line; exit 1 if a row's ratio is
outside 1 +- --tolerance AND outside the larger of the two sides' spreads.
  scripts/gpu_bench_compare.py --a A1.json [A2.json ...] --b B1.json [B2.json ...] [--tolerance 0.03]
"""
import argparse
import json
import statistics
import sys


def load(paths):
    rows = {}
    for p in paths:
        with open(p) as f:
            for r in json.load(f)["rows"]:
                rows.setdefault((r["name"], r.get("log_n")), []).append(r["median_ms"])
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", nargs="+", required=True, help="side A's gpu_bench JSON files")
    ap.add_argument("--b", nargs="+", required=True, help="side B's gpu_bench JSON files")
    ap.add_argument("--tolerance", type=float, default=0.03, help="allowed |B/A - 1| (default 0.03)")
    args = ap.parse_args()
    a, b = load(args.a), load(args.b)
    common = sorted(k for k in a if k in b)
    if not common:
        sys.exit("gpu_bench_compare.py: the two sides have no row in common")
    out = []
    for k in common:
        ma, mb = statistics.median(a[k]), statistics.median(b[k])
        sa = (max(a[k]) - min(a[k])) / ma if ma else 0.0
        sb = (max(b[k]) - min(b[k])) / mb if mb else 0.0
        out.append((k, ma, mb, mb / ma, sa, sb))
    out.sort(key=lambda r: abs(r[3] - 1), reverse=True)
    print("| row | log2 n | A median ms | B median ms | B/A | A spread | B spread |")
    print("|---|---|---|---|---|---|---|")
    bad = 0
    for (name, log_n), ma, mb, r, sa, sb in out:
        flag = abs(r - 1) > args.tolerance and abs(r - 1) > max(sa, sb)
        bad += flag
        print(f"| {name} | {log_n} | {ma:.4g} | {mb:.4g} | {r:.4f}{' **' if flag else ''} | "
              f"{sa:.3f} | {sb:.3f} |")
    ratios = [r[3] for r in out]
    only_a = sorted(k for k in a if k not in b)
    only_b = sorted(k for k in b if k not in a)
    print(f"\n{len(common)} rows in common: B/A median {statistics.median(ratios):.4f}, "
          f"range {min(ratios):.4f}..{max(ratios):.4f}; {bad} beyond +-{args.tolerance:g} and "
          f"the A-vs-A spread; only in A: {len(only_a)}, only in B: {len(only_b)} "
          f"({', '.join(f'{n} 2^{l}' for n, l in only_b) or '-'})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
