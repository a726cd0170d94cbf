#!/usr/bin/env python3
"""A full-size plan (`ckptlab-cli plan --capacity ... --json`) against a real sweep of the same
model (`ckptlab-cli sweep ... --json`): per strategy the predicted and measured allocated peak
(baseline + peak, bytes), reserved peak and step time. The plan's fastest schedule is matched to
the sweep's optimal:MiB run of the same name; the sweep plans that budget again from its own
cost model (measured at the full size, with its own times), so it may run another schedule:
then its bytes are not the plan's to compare, only whether its reserved peak stays within the
capacity.

Usage: compare_plan.py PLAN.json SWEEP.json [--tolerance BYTES] [--json OUT.json]
Exit 0 when every allocated peak of the plan's schedules is within the tolerance (default 8
bytes) and no run failed, 1 otherwise."""
import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("plan")
    parser.add_argument("sweep")
    parser.add_argument("--tolerance", type=int, default=8)
    parser.add_argument("--json")
    args = parser.parse_args()
    plan = json.load(open(args.plan))
    sweep = json.load(open(args.sweep))
    predicted = {s["strategy"]: s for s in plan["strategies"]}
    if plan.get("fastest"):
        predicted.setdefault(plan["fastest"]["strategy"], plan["fastest"])
    rows, ok = [], True
    c = plan["config"]
    print(f"plan: {plan['model']} L={c['depth']} B={c['batch']} S={c['seq']} V={c['vocab']} "
          f"{c['precision']} {c['optimizer']} {c['attention']}; times {plan['times']['label']}")
    print(f"sweep: {sweep['environment'].get('device_name', '?')} "
          f"({sweep['environment'].get('device', '?')}), {sweep['environment'].get('threads')} threads")
    header = (f"{'strategy':<22} {'pred alloc B':>14} {'meas alloc B':>14} {'diff B':>8} "
              f"{'pred resv B':>14} {'meas resv B':>14} {'diff B':>12} "
              f"{'pred ms':>10} {'meas ms':>10} {'meas/pred':>9}")
    print(header)
    for run in sweep["runs"]:
        name = run["strategy"]
        p = predicted.get(name)
        if p is None:
            print(f"{name:<22} (not in the plan)")
            continue
        m = run["metrics"]
        measured_alloc = m["baseline_bytes"] + m["peak_bytes"]
        alloc_diff = measured_alloc - p["allocated_bytes"]
        stats = run.get("allocator") or run.get("cuda_allocator") or {}
        measured_resv = stats.get("reserved_peak")
        resv_diff = None if measured_resv is None else measured_resv - p["reserved_bytes"]
        step = m.get("step_ms")
        ratio = step / p["step_ms"] if step and p["step_ms"] else None
        same_schedule = None
        if name.startswith("optimal:") and plan.get("fastest"):
            same_schedule = run.get("schedule") == plan["fastest"].get("schedule")
        comparable = same_schedule is not False
        if comparable:
            within = abs(alloc_diff) <= args.tolerance and not run.get("error")
        else:
            within = not run.get("error") and (measured_resv or measured_alloc) <= plan[
                "capacity_bytes"]
        ok = ok and within
        rows.append({"strategy": name, "predicted_allocated": p["allocated_bytes"],
                     "measured_allocated": measured_alloc, "allocated_difference": alloc_diff,
                     "predicted_reserved": p["reserved_bytes"], "measured_reserved": measured_resv,
                     "reserved_difference": resv_diff, "predicted_step_ms": p["step_ms"],
                     "measured_step_ms": step, "measured_over_predicted": ratio,
                     "same_schedule": same_schedule, "schedule": run.get("schedule"),
                     "planned_schedule": plan["fastest"].get("schedule")
                     if same_schedule is not None else None,
                     "error": run.get("error"),
                     "within_tolerance": within})
        print(f"{name:<22} {p['allocated_bytes']:>14} {measured_alloc:>14} {alloc_diff:>8} "
              f"{p['reserved_bytes']:>14} {measured_resv if measured_resv is not None else '-':>14} "
              f"{resv_diff if resv_diff is not None else '-':>12} "
              f"{p['step_ms']:>10.1f} {step if step else float('nan'):>10.1f} "
              f"{ratio if ratio else float('nan'):>9.3f}"
              + ("" if same_schedule is None else
                 ("  same schedule" if same_schedule else
                  "  another schedule than the plan's (the sweep planned the budget again): "
                  "bytes not comparable, " + ("within" if within else "ABOVE") + " the capacity"))
              + ("" if within or not comparable else
                 "  <-- allocated differs by more than the tolerance")
              + (f"  error: {run['error']}" if run.get("error") else ""))
    verdict = (f"every allocated peak of the plan's schedules within {args.tolerance} B" if ok
               else f"some allocated peak differs by more than {args.tolerance} B, or a run failed")
    print(verdict)
    for row in rows:
        if row["same_schedule"] is False:
            print(f"{row['strategy']}: planned {row['planned_schedule']}")
            print(f"{' ' * len(row['strategy'])}  ran     {row['schedule']}")
    if args.json:
        json.dump({"plan": args.plan, "sweep": args.sweep, "tolerance": args.tolerance,
                   "rows": rows, "ok": ok}, open(args.json, "w"), indent=2)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
