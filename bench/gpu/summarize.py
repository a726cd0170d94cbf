#!/usr/bin/env python3
"""Markdown tables from ckptlab-cli results JSON and torch_reference.py JSON, and trimmed copies.

Usage:
  summarize.py table RESULTS.json            one row per run: peak, prediction, activations,
                                             step time (median and fastest), grad check
  summarize.py reference REFERENCE.json      the plain-PyTorch measurement
  summarize.py trim RESULTS.json OUT.json    the same file without the per-allocation timeline
                                             (the bulk of it), for keeping in the repository
  summarize.py trim --summary RESULTS.json OUT.json   also without the per-block lifetimes and
                                             the phase spans: config, metrics, prediction,
                                             grad check, breakdown and schedule of each run
"""
import json
import sys

MiB = 1024.0 * 1024.0


def table(path):
    d = json.load(open(path))
    env = d.get("environment", {})
    print(f"<!-- {path}: LibTorch {env.get('libtorch_version')}, {env.get('device')} "
          f"({env.get('device_name')}), {env.get('dtype')}, created {env.get('created_utc')} -->")
    print("| strategy | peak MiB | predicted MiB | activations MiB | step ms (median) | fastest | "
          "forward ms | backward ms | recompute ms | grad check max\\|diff\\| (tolerance) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in d["runs"]:
        if r.get("error"):
            print(f"| {r['strategy']} | failed: {r['error']} |||||||||")
            continue
        m, p, g = r["metrics"], r.get("prediction") or {}, r.get("grad_check") or {}
        samples = m.get("step_samples_ms") or [m["step_ms"]]
        pred = f"{p['peak_bytes'] / MiB:.2f}" if p.get("peak_bytes") else "-"
        check = (f"{g.get('max_abs_diff', 0):.3g} ({g.get('tolerance', 0):.3g})"
                 + ("" if g.get("passed", True) else " FAILED"))
        print(f"| {r['strategy']} | {m['peak_bytes'] / MiB:.2f} | {pred} | "
              f"{m['activation_bytes'] / MiB:.2f} | {m['step_ms']:.1f} | {min(samples):.1f} | "
              f"{m['forward_ms']:.1f} | {m['backward_ms']:.1f} | {m['recompute_ms']:.1f} | {check} |")
    if d.get("cancelled"):
        print("\n(the run was interrupted; only the finished runs are listed)")


def reference(path):
    d = json.load(open(path))
    print(f"<!-- {path}: torch {d['torch']} CUDA {d['cuda']} on {d['device']}, "
          f"config {d['config']} -->")
    print("| strategy | peak MiB | activations MiB | step ms (median) | fastest | forward ms | "
          "backward ms | grad max\\|diff\\| vs none |")
    print("|---|---|---|---|---|---|---|---|")
    for r in d["runs"]:
        if "error" in r:
            print(f"| {r['strategy']} | failed: {r['error']} |||||||")
            continue
        print(f"| {r['strategy']} | {r['peak_mib']:.2f} | {r['activation_mib']:.2f} | "
              f"{r['step_ms_median']:.1f} | {r['step_ms_min']:.1f} | {r['forward_ms_median']:.1f} | "
              f"{r['backward_ms_median']:.1f} | {r['grad_max_abs_diff_vs_none']:.3g} |")


def trim(path, out, summary=False):
    d = json.load(open(path))
    drop = ["timeline"] + (["blocks", "phases"] if summary else [])
    for r in d.get("runs", []):
        sizes = {k: len(r.get(k) or []) for k in drop}
        for k in drop:
            r.pop(k, None)
        r["removed_by_trim"] = sizes
    json.dump(d, open(out, "w"), separators=(",", ":"))


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "table":
        table(sys.argv[2])
    elif cmd == "reference":
        reference(sys.argv[2])
    elif cmd == "trim" and sys.argv[2] == "--summary":
        trim(sys.argv[3], sys.argv[4], summary=True)
    elif cmd == "trim":
        trim(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
