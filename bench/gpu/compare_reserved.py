#!/usr/bin/env python3
"""The caching allocator's bytes: the model (CPU) and its prediction against CUDA and PyTorch.

For each case (one config) and each strategy it reads:
  model      ckptlab-cli's results on the CPU with --allocator caching: run.allocator, source
             "caching-model" (the CPU allocator that follows CUDA's caching allocator's rules)
  predicted  prediction.reserved_peak_bytes (the planner's replay of the step), from the CUDA
             results (else from the model's)
  CUDA       ckptlab-cli's results on CUDA: run.allocator, source "cuda" (CUDA's own caching
             allocator's statistics of the traced step)
  PyTorch    bench/gpu/torch_reference.py's runs[].allocator: the same chain in plain PyTorch,
             measured with the same protocol (empty_cache + reset_peak_memory_stats at the
             strategy's start, the strategy's first step)
and prints, per strategy: allocated and reserved bytes at the step's start, their peaks, and
the peaks above the start, with each source's difference from CUDA in % and PASS/MISS against
the goals (allocated peak within 0.1 %, reserved peak within 2 %), and the model against
PyTorch. Notes name the known differences it sees (the runner's own copies and cuBLAS
workspaces at the start, a CUDA cache not emptied at a run's start).

Usage:
  compare_reserved.py [--json OUT.json] [--strict] CASE [CASE ...]
  CASE = NAME,model=PATH,cuda=PATH,torch=PATH   (each file optional; a missing file: '-')
Exit 0 (2 on unreadable input; with --strict 1 when a model/prediction-vs-CUDA check misses).
"""
import json
import os
import sys

MiB = 1024.0 * 1024.0
GOALS = {"allocated_peak": 0.1, "allocated_above": 0.1, "reserved_peak": 2.0,
         "reserved_above": 2.0}
ROWS = [("allocated_start", "allocated start"), ("allocated_peak", "allocated peak"),
        ("allocated_above", "allocated peak - start"), ("reserved_start", "reserved start"),
        ("reserved_peak", "reserved peak"), ("reserved_above", "reserved peak - start")]
SOURCES = ["model", "predicted", "cuda", "torch"]
HEAD = {"model": "model (cpu)", "predicted": "predicted", "cuda": "CUDA", "torch": "PyTorch"}
# (a, b): a's difference from b, in % of b. The first two carry the goals of the check.
PAIRS = [("model", "cuda"), ("predicted", "cuda"), ("torch", "cuda"), ("model", "torch"),
         ("predicted", "model")]
GOAL_PAIRS = {("model", "cuda"), ("predicted", "cuda")}


def load(path):
    if not path or path == "-":
        return None
    if not os.path.exists(path):
        return {"missing": path}
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write(f"compare_reserved.py: {path}: {e}\n")
        sys.exit(2)


def stats_of(allocator):
    """The four counts and the two above-start differences, or None."""
    if not allocator or any(k not in allocator for k in ("allocated_start", "allocated_peak",
                                                          "reserved_start", "reserved_peak")):
        return None
    s = {k: int(allocator[k]) for k in ("allocated_start", "allocated_peak", "reserved_start",
                                        "reserved_peak")}
    s["allocated_above"] = s["allocated_peak"] - s["allocated_start"]
    s["reserved_above"] = s["reserved_peak"] - s["reserved_start"]
    s["source"] = allocator.get("source")
    return s


def ckptlab_runs(results):
    """{strategy: run} of a ckptlab results file (run.allocator, or the older cuda_allocator)."""
    runs = {}
    for r in (results or {}).get("runs", []):
        r = dict(r)
        if "allocator" not in r and r.get("cuda_allocator"):
            r["allocator"] = dict(r["cuda_allocator"], source="cuda")
        runs[r["strategy"]] = r
    return runs


def config_text(c):
    if not c:
        return "?"
    return (f"{c.get('block', 'ffn')} d={c.get('width')} L={c.get('depth')} B={c.get('batch')} "
            f"S={c.get('seq')} {c.get('dtype', 'float32')}")


def shape(c):
    return tuple((c or {}).get(k) for k in ("width", "depth", "batch", "seq"))


def pct(a, b):
    if a is None or b is None:
        return None
    if b == 0:
        return 0.0 if a == 0 else float("inf")
    return 100.0 * (a - b) / b


def mib(v):
    return "-" if v is None else f"{v / MiB:.2f}"


def compare_case(name, paths):
    data = {k: load(paths.get(k)) for k in ("model", "cuda", "torch")}
    notes, problems = [], []
    for k, d in data.items():
        if d and "missing" in d:
            problems.append(f"{HEAD[k]}: file {d['missing']} does not exist (that step did not "
                            "run or did not finish)")
            data[k] = None
    model_runs, cuda_runs = ckptlab_runs(data["model"]), ckptlab_runs(data["cuda"])
    torch_runs = {r["strategy"]: r for r in (data["torch"] or {}).get("runs", [])}

    for k, runs in (("model", model_runs), ("cuda", cuda_runs)):
        if runs and not any(r.get("allocator") for r in runs.values()):
            problems.append(f"{HEAD[k]}: no run has an `allocator` field ("
                            + ("was it built with CKPTLAB_WITH_CUDA, from sources that report "
                               "CUDA's caching allocator?)" if k == "cuda" else
                               "sources from before the caching CPU allocator, or "
                               "--allocator system?)"))
    configs = {}
    if model_runs:
        configs["model"] = next(iter(model_runs.values())).get("config")
    if cuda_runs:
        configs["cuda"] = next(iter(cuda_runs.values())).get("config")
    if data["torch"]:
        configs["torch"] = data["torch"].get("config")
    shapes = {k: shape(c) for k, c in configs.items()}
    if len(set(shapes.values())) > 1:
        problems.append("the files are not of one config: " + "; ".join(
            f"{HEAD[k]} {config_text(configs[k])}" for k in configs) + " (compared anyway)")
    config = configs.get("cuda") or configs.get("model") or configs.get("torch")

    strategies = list(dict.fromkeys(list(cuda_runs) + list(model_runs) +
                                    [s for s in torch_runs if "reentrant" not in s]))
    out = {"name": name, "config": config, "files": {k: paths.get(k) for k in paths},
           "strategies": []}
    for s in strategies:
        m, c, t = model_runs.get(s), cuda_runs.get(s), torch_runs.get(s)
        values = {"model": stats_of((m or {}).get("allocator")),
                  "cuda": stats_of((c or {}).get("allocator")),
                  "torch": stats_of((t or {}).get("allocator"))}
        pred_c = ((c or {}).get("prediction") or {}).get("reserved_peak_bytes")
        pred_m = ((m or {}).get("prediction") or {}).get("reserved_peak_bytes")
        predicted = pred_c if pred_c is not None else pred_m
        values["predicted"] = None if predicted is None else {"reserved_peak": int(predicted)}
        if pred_c is not None and pred_m is not None and pred_c != pred_m:
            notes.append(f"{s}: the prediction differs between the files: CUDA's "
                         f"{pred_c:,} B, the CPU run's {pred_m:,} B (cost models measured on "
                         "each device); the CUDA file's is compared")
        for k in ("model", "cuda"):
            run = m if k == "model" else c
            if run and run.get("error"):
                problems.append(f"{s}: the {HEAD[k]} run failed: {run['error']}")
        comparisons = []
        for a, b in PAIRS:
            for q, label in ROWS:
                va = (values[a] or {}).get(q)
                vb = (values[b] or {}).get(q)
                if va is None or vb is None:
                    continue
                d = pct(va, vb)
                goal = GOALS.get(q)
                verdict = "-" if goal is None else ("PASS" if abs(d) <= goal else "MISS")
                comparisons.append({"pair": f"{a}-{b}", "quantity": q, "a": va, "b": vb,
                                    "diff_bytes": va - vb, "diff_pct": d, "goal_pct": goal,
                                    "verdict": verdict})
        entry = {"strategy": s, "values": values, "comparisons": comparisons}
        for k, run in (("model", m), ("cuda", c)):
            if run:
                entry[f"{k}_tracker_peak_bytes"] = (run.get("metrics") or {}).get("peak_bytes")
                entry[f"{k}_breakdown"] = {x: (run.get("breakdown") or {}).get(x)
                                           for x in ("parameters", "input", "optimizer_state")}
        out["strategies"].append(entry)

    notes += known_differences(out, data, cuda_runs, model_runs)
    out["notes"], out["problems"] = notes, problems
    return out


def known_differences(case, data, cuda_runs, model_runs):
    """What the numbers show about the known differences, in words."""
    notes = []
    first = next((e for e in case["strategies"] if e["values"]["cuda"]), None)
    if cuda_runs and any((r.get("allocator") or {}).get("source") not in ("cuda", None)
                         for r in cuda_runs.values()):
        notes.append("DRY RUN: the CUDA column's runs are not CUDA's (allocator source "
                     f"{next(iter(cuda_runs.values())).get('allocator', {}).get('source')}): "
                     "the script's logic only, no finding")
    if model_runs and any((r.get("allocator") or {}).get("source") != "caching-model"
                          for r in model_runs.values() if not r.get("error")):
        notes.append("the model column's runs are not all the caching CPU allocator's "
                     "(source caching-model): was --allocator caching given?")
    # CUDA's start against the model's (what lives across steps on CUDA and, where they are
    # CUDA tensors, the runner's copies) or, without the model, against PyTorch's (the copies).
    other = "model" if first and first["values"]["model"] else "torch"
    if first and first["values"][other]:
        vc, vo = first["values"]["cuda"], first["values"][other]
        bd = first.get("cuda_breakdown") or first.get("model_breakdown") or {}
        p, i = bd.get("parameters") or 0, bd.get("input") or 0
        extra = vc["allocated_start"] - vo["allocated_start"]
        copies = 2 * p + i
        held = ("what lives across steps on CUDA (cuBLAS/cuBLASLt workspaces: in torch 2.x they "
                "are allocated through the caching allocator and kept) and 512-byte rounding"
                if other == "model" else "the difference between the two processes' workspaces")
        if copies and extra >= 0.9 * copies:
            why = (f"that is the runner's own copies, CUDA tensors there: initial weights "
                   f"({p / MiB:.2f} MiB) + reference gradients (parameters + input, "
                   f"{(p + i) / MiB:.2f} MiB) = {copies / MiB:.2f} MiB, and "
                   f"{(extra - copies) / MiB:+.2f} MiB of {held}")
        else:
            why = f"the runner's copies are not in CUDA's allocator; the difference is {held}"
        notes.append(f"allocated start ({first['strategy']}): CUDA holds {extra / MiB:+.2f} MiB "
                     f"more than {HEAD[other]}: {why}. The absolute peaks carry this difference; "
                     "the peaks above the start do not.")
    # What each start holds beyond what a training script holds (parameters, input, optimizer
    # state): the runner's own copies would be about 2 x parameters + input.
    for k in ("model", "cuda"):
        e = next((e for e in case["strategies"]
                  if e["values"][k] and e.get(f"{k}_breakdown")), None)
        if not e:
            continue
        bd = e[f"{k}_breakdown"]
        p, i, o = (bd.get(x) or 0 for x in ("parameters", "input", "optimizer_state"))
        beyond = e["values"][k]["allocated_start"] - (p + i + o)
        notes.append(f"{HEAD[k]} ({e['strategy']}): the allocated start is {beyond / MiB:.2f} MiB "
                     f"above parameters + input + optimizer state ({(p + i + o) / MiB:.2f} MiB); "
                     f"the runner's copies would be {(2 * p + i) / MiB:.2f} MiB")
    torch_ref = data.get("torch") or {}
    if "held_across_steps_bytes" in torch_ref:
        notes.append(f"PyTorch: {torch_ref['held_across_steps_bytes'] / MiB:.2f} MiB stay "
                     "allocated after a step beyond parameters and input (cuBLAS workspaces and "
                     f"the like; torch {torch_ref.get('torch')}); the model has none of it")
    cached = []
    for e in case["strategies"]:
        for k in ("cuda", "model", "torch"):
            v = e["values"][k]
            if v:
                free = v["reserved_start"] - v["allocated_start"]
                e.setdefault("cached_free_at_start", {})[k] = free
        cf = e.get("cached_free_at_start", {})
        if "cuda" in cf and cf["cuda"] > cf.get("model", cf.get("torch", 0)) + 4 * MiB:
            cached.append(f"{e['strategy']} {cf['cuda'] / MiB:.1f}")
    if cached:
        notes.append(
            "CUDA's cache was NOT empty at the traced step's start (cached free MiB: "
            + ", ".join(cached) + "): the engine that wrote the CUDA file did not empty CUDA's "
            "cache at a run's start as it empties the model's (startCachingRun), so the step "
            "reused blocks the reference step and earlier strategies left, and its reserved peak "
            "(above the start too) is not comparable with the model's or PyTorch's (both "
            "emptied). Compare the model with PyTorch there.")
    for e in case["strategies"]:
        vc, tp = e["values"]["cuda"], e.get("cuda_tracker_peak_bytes")
        if vc and tp is not None and vc["source"] == "cuda" and vc["allocated_above"] != tp:
            notes.append(f"{e['strategy']}: CUDA's allocated peak above the start "
                         f"{vc['allocated_above']:,} B != the tracker's peak_bytes {tp:,} B "
                         f"({vc['allocated_above'] - tp:+,} B)")
    notes.append("goals: allocated peak within 0.1 %, reserved peak within 2 %, each in % of "
                 "the second source's (A-B = (A - B) / B); model-PyTorch is the model against "
                 "plain PyTorch under the same protocol (PyTorch's non-reentrant checkpoint, "
                 "ckptlab's own); pred-model is the planner's replay against the CPU allocator "
                 "that ran the step")
    return notes


def print_case(case):
    print(f"== {case['name']}: {config_text(case['config'])} ==")
    files = ", ".join(f"{HEAD.get(k, k)} {v}" for k, v in case["files"].items() if v and v != "-")
    print(f"files: {files}")
    for p in case["problems"]:
        print(f"PROBLEM: {p}")
    short = {"model": "model", "predicted": "pred", "cuda": "CUDA", "torch": "PyTorch"}
    head = (f"{'strategy':<11} {'quantity (MiB)':<30}" + "".join(f"{HEAD[s]:>12}" for s in SOURCES)
            + " |" + "".join(f"{short[a] + '-' + short[b]:>15}" for a, b in PAIRS))
    print(head)
    print("-" * len(head))
    for e in case["strategies"]:
        for i, (q, label) in enumerate(ROWS):
            goal = GOALS.get(q)
            label = label + (f" ({goal:g}%)" if goal else "")
            cells = "".join(f"{mib((e['values'][s] or {}).get(q)):>12}" for s in SOURCES)
            diffs = ""
            for a, b in PAIRS:
                hit = next((c for c in e["comparisons"]
                            if c["pair"] == f"{a}-{b}" and c["quantity"] == q), None)
                if hit is None:
                    diffs += f"{'-':>15}"
                else:
                    mark = "" if hit["verdict"] == "-" else hit["verdict"]
                    diffs += f"{hit['diff_pct']:>+9.3f}%{mark:>5}"
            print(f"{e['strategy'] if i == 0 else '':<11} {label:<30}{cells} |{diffs}")
    for n in case["notes"]:
        print(f"note: {n}")
    print()


def main(argv):
    args, cases, json_out, strict = list(argv), [], None, False
    while args:
        a = args.pop(0)
        if a == "--json":
            json_out = args.pop(0)
        elif a == "--strict":
            strict = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            name, *parts = a.split(",")
            paths = {}
            for part in parts:
                key, _, value = part.partition("=")
                if key not in ("model", "cuda", "torch") or not value:
                    sys.stderr.write(f"compare_reserved.py: {a!r}: expected "
                                     "NAME,model=PATH,cuda=PATH,torch=PATH\n")
                    return 2
                paths[key] = value
            cases.append(compare_case(name, paths))
    if not cases:
        sys.stderr.write(__doc__)
        return 2
    summary = {}
    for case in cases:
        for e in case["strategies"]:
            for c in e["comparisons"]:
                if c["verdict"] == "-":
                    continue
                s = summary.setdefault(c["pair"], {"PASS": 0, "MISS": 0, "missed": [],
                                                   "by_quantity": {}})
                s[c["verdict"]] += 1
                q = s["by_quantity"].setdefault(c["quantity"], {"PASS": 0, "n": 0})
                q["n"] += 1
                q["PASS"] += c["verdict"] == "PASS"
                if c["verdict"] == "MISS":
                    s["missed"].append(f"{case['name']}/{e['strategy']}/{c['quantity']} "
                                       f"{c['diff_pct']:+.3f}%")
    for case in cases:
        print_case(case)
    goal_rows = [(q, label) for q, label in ROWS if q in GOALS]
    print("summary of all cases: PASS / compared")
    print(f"  {'':<16}" + "".join(f" | {label} ({GOALS[q]:g}%)" for q, label in goal_rows))
    for pair, s in summary.items():
        cells = ""
        for q, label in goal_rows:
            got = s["by_quantity"].get(q)
            text = f"{got['PASS']}/{got['n']}" if got else "-"
            cells += f" | {text:>{len(label) + len(f' ({GOALS[q]:g}%)')}}"
        print(f"  {pair:<16}{cells}")
    if not summary:
        print("  nothing to compare (no two sources of one strategy)")
    if json_out:
        with open(json_out, "w") as f:
            json.dump({"goals_pct": GOALS, "cases": cases, "summary": summary}, f, indent=1)
    missed = sum(summary.get(f"{a}-{b}", {}).get("MISS", 0) for a, b in GOAL_PAIRS)
    return 1 if strict and missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
