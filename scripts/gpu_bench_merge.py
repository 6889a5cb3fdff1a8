#!/usr/bin/env python3
"""Merges gpu_bench JSON files into one: the rows of BASE, with every row of each ADD file
replacing BASE's row of the same name and log_n (or appended when BASE has none). The result
keeps BASE's manifest and ceilings and says in "merged_from" which files it came from, so a
calibration taking its kernel curves from it names them all. Used when one device session
measures only some rows (e.g. `gpu_bench --rows g2_porep`) on a card kind whose other rows were
measured earlier.

usage: gpu_bench_merge.py BASE.json OUT.json ADD.json [ADD.json...] [--note TEXT]
"""
import argparse
import json
import os
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base")
    ap.add_argument("out")
    ap.add_argument("add", nargs="+")
    ap.add_argument("--note", default="", help="appended to merged_from (what the added rows are)")
    a = ap.parse_args()
    with open(a.base) as f:
        merged = json.load(f)
    rows = merged["rows"]
    index = {(r["name"], r["log_n"]): i for i, r in enumerate(rows)}
    sources = [a.base]
    for path in a.add:
        with open(path) as f:
            add = json.load(f)
        for r in add["rows"]:
            key = (r["name"], r["log_n"])
            if key in index:
                rows[index[key]] = r
            else:
                index[key] = len(rows)
                rows.append(r)
        m = add.get("manifest", {})
        sources.append(f"{path} (rows: {m.get('rows', '?')}, commit {m.get('commit', '?')}, "
                       f"{m.get('gpu', '?')}, {m.get('date', '?')})" + (f": {a.note}" if a.note else ""))
    merged["merged_from"] = sources
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(merged, f, indent=1)
        f.write("\n")
    os.replace(tmp, a.out)
    print(f"{a.out}: {len(rows)} rows from {len(sources)} files", file=sys.stderr)


if __name__ == "__main__":
    main()
