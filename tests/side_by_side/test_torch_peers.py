"""ckptlab's peak memory against plain PyTorch's non-reentrant torch.utils.checkpoint, per strategy.

Runs ckptlab-cli sweep on a small chain (or reads a results file, --results), runs every
strategy's schedule in the PyTorch this interpreter imports (torch_chains.py: the same model,
the same bytes counted through the same allocator hook), prints a table and checks:
  - `none`: ckptlab's peak equals PyTorch's, to the byte (ffn, transformer); on the Llama chain,
    whose peer is written as transformers writes it (rotary tables and a causal mask per step,
    k and v copied for grouped-query attention), at most PyTorch's, like every other strategy;
  - every checkpointing strategy: ckptlab's peak is at most PyTorch's; with torch 1.13, whose
    nested checkpoints free RNG states earlier, a nested schedule may be above by whole RNG
    states (FREES_OUTER_RNG_STATE), on the test's chains by exactly KNOWN_ABOVE's, so that a
    change either way is seen;
  - the schedule ckptlab ran is the one the strategy names (plan_of) where PyTorch can name it;
    revolve:S and optimal:MiB run in PyTorch from the results file's `schedule`;
  - no run failed, and every gradient check passed but seed-bug's (it must fail);
  - the block's list (CHAINS) has every strategy kind ckptlab-cli --help lists (the
    transformer-only ones on the transformer and Llama chains), so that a new kind needs its
    case here.

    test_torch_peers.py --cli build/release/app/ckptlab-cli --block ffn
    test_torch_peers.py --results planted.json          # compare a results file instead

Exit 0 when every check holds, 1 when one fails (each failure names its strategy), 2 on bad
arguments, 77 when this interpreter has no torch (ctest's SKIP_RETURN_CODE; 1 instead when
CKPTLAB_REQUIRE_TORCH=1, as CI sets it).
CKPTLAB_PEER_PLANT="STRATEGY+BYTES[,STRATEGY+BYTES...]" adds BYTES to ckptlab's peak of
STRATEGY before the comparison (to see the checks fail).
"""
import argparse
import os
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_chains  # noqa: E402

SKIP = 77

# The chains the ctests run: small (a second or two per side on one thread), every built-in
# strategy kind at least once, nested checkpoints (revolve:1, revolve:2) and an optimal plan near
# the chain's smallest peak. The transformer runs with dropout on: both sides draw a noise
# tensor of the same size and stash an RNG state per checkpoint.
CHAINS = {
    "ffn": {
        "config": {"block": "ffn", "depth": 6, "width": 64, "seq": 64, "batch": 2, "heads": 4,
                   "dropout": 0.0, "seed": 0},
        "strategies": ["none", "full", "every:2", "every:3", "segments:2", "segments:3", "sqrt",
                       "from:0", "from:3", "upto:2", "revolve:1", "revolve:2", "seed-bug:3",
                       "optimal:1.2", "optimal:1.35"],
    },
    "transformer": {
        "config": {"block": "transformer", "depth": 4, "width": 64, "seq": 64, "batch": 2,
                   "heads": 4, "dropout": 0.1, "seed": 0},
        "strategies": ["none", "full", "attn", "ffn", "every:2", "segments:2", "sqrt", "from:1",
                       "upto:3", "revolve:1", "revolve:2", "seed-bug:2", "optimal:1.6",
                       "optimal:2.4"],
    },
    # Grouped-query attention (4 query heads, 2 key/value heads), Llama's MLP width (256),
    # every kind, optimal near the smallest peak. The peer is Hugging Face's code
    # (torch_chains.llama_blocks), not a copy of ckptlab's ops: its `none` is an upper bound.
    "llama": {
        "config": {"block": "llama", "depth": 4, "width": 64, "seq": 64, "batch": 2,
                   "heads": 4, "kv_heads": 2, "dropout": 0.0, "seed": 0},
        "strategies": ["none", "full", "attn", "ffn", "every:2", "segments:2", "sqrt", "from:1",
                       "upto:3", "revolve:1", "revolve:2", "seed-bug:2", "optimal:1.8",
                       "optimal:2.6"],
        "none_equal": False,
    },
}

# Torch versions whose non-reentrant checkpoint, nested, frees an outer checkpoint's RNG state
# (torch.get_rng_state(), 5,056 B) once the backward of its own ops is done: torch 1.13. Then
# at the innermost recompute PyTorch holds one RNG state where ckptlab (and torch 2.12) hold one
# per level of nesting, each checkpoint's until its whole backward returns. With these versions
# a nested schedule's peak may be above PyTorch's by whole RNG states, at most one per level
# below the outermost; the test's own nested chains must be above by exactly KNOWN_ABOVE.
FREES_OUTER_RNG_STATE = {"1.13"}

# (torch major.minor, block, strategy) -> RNG states ckptlab's peak is above PyTorch's, measured
# on the test's chains (CHAINS): the peak of revolve:1 on the ffn chain is at five levels.
KNOWN_ABOVE = {
    ("1.13", "ffn", "revolve:1"): 4,
    ("1.13", "ffn", "revolve:2"): 1,
    ("1.13", "transformer", "revolve:1"): 2,
    ("1.13", "transformer", "revolve:2"): 0,  # its peak is outside the nested checkpoint
}


def torch_required():
    """CI sets CKPTLAB_REQUIRE_TORCH=1: there a missing torch fails instead of skipping."""
    return os.environ.get("CKPTLAB_REQUIRE_TORCH") == "1"


def torch_version(torch):
    return ".".join(torch.__version__.split("+")[0].split(".")[:2])


def parse_plants(text):
    plants = {}
    for part in filter(None, (text or "").split(",")):
        name, sep, amount = part.rpartition("+")
        if not sep or not name or not amount.isdigit():
            raise SystemExit(f"test_torch_peers.py: CKPTLAB_PEER_PLANT: {part!r} is not "
                             "STRATEGY+BYTES (e.g. full+131072)")
        plants[name] = plants.get(name, 0) + int(amount)
    return plants


def missing_kinds(cli, block, strategies):
    """Problems: kinds the CLI knows that the block's list lacks."""
    have = {s.split(":")[0] for s in strategies}
    return [f"{kind}: a strategy kind of ckptlab-cli --help that CHAINS[{block!r}] lacks "
            "(tests/side_by_side/test_torch_peers.py; docs/ARCHITECTURE.md, Add a strategy)"
            for kind, transformer_only in torch_chains.cli_kinds(cli)
            if kind not in have and (block in ("transformer", "llama") or not transformer_only)]


def check_run(name, run, units, depth, problems):
    """The run's own checks; returns the schedule PyTorch runs, or None."""
    if run.get("error"):
        problems.append(f"{name}: ckptlab's run failed: {run['error']}")
        return None
    grad = run.get("grad_check") or {}
    if name.startswith("seed-bug"):
        if grad.get("checked") and grad.get("passed"):
            problems.append(f"{name}: the gradient check passed, but the closure bug must fail it")
    elif grad.get("checked") and not grad.get("passed"):
        problems.append(f"{name}: ckptlab's gradient check failed")
    try:
        ran = torch_chains.parse_schedule(run["schedule"])
    except (KeyError, ValueError) as e:
        problems.append(f"{name}: the results file's schedule: {e}")
        return None
    named = torch_chains.plan_of(name, depth, units)
    if named is not None and torch_chains.describe(named) != run["schedule"]:
        problems.append(f"{name}: ckptlab ran {run['schedule']!r}, the strategy names "
                        f"{torch_chains.describe(named)!r}")
        return None
    return named if named is not None else ran


def verdict(name, ours, theirs, rule, none_equal=True):
    """The comparison of one strategy: (ok, text). `rule`: ("exact", bytes) when this torch is
    known to keep exactly that much less, ("states", rng_bytes, most) when it may keep up to
    `most` RNG states less, or None. `none_equal`: `none` must equal PyTorch's (the peers that
    copy ckptlab's ops), else it is held to at most, like the others."""
    diff = ours - theirs
    if name == "none" and none_equal:
        return diff == 0, "equal" if diff == 0 else f"none must equal PyTorch's, {diff:+,} B"
    if rule and rule[0] == "exact":
        ok = diff == rule[1]
        return ok, (f"known {diff:+,} B" if ok else f"expected the known {rule[1]:+,} B, got "
                    f"{diff:+,} B (update KNOWN_ABOVE if the change is understood)")
    if diff <= 0:
        return True, "equal" if diff == 0 else "below"
    if rule and diff % rule[1] == 0 and diff <= rule[1] * rule[2]:
        return True, f"{diff // rule[1]} RNG states (nested, this torch)"
    return False, f"ckptlab's peak is {diff:,} B above PyTorch's"


def rule_for(torch, config, name, items):
    """How this torch's peak may lie below ckptlab's for a strategy (see verdict)."""
    version = torch_version(torch)
    if version not in FREES_OUTER_RNG_STATE or torch_chains.nesting(items) < 2:
        return None
    rng = torch.get_rng_state().numel()
    chain = CHAINS[config["block"]]["config"]
    known = KNOWN_ABOVE.get((version, config["block"], name))
    if known is not None and all(config.get(k) == v for k, v in chain.items()):
        return ("exact", known * rng)
    return ("states", rng, torch_chains.nesting(items) - 1)


def compare(args, torch, runs, config):
    units = 2 if config["block"] in ("transformer", "llama") else 1
    none_equal = CHAINS.get(config["block"], {}).get("none_equal", True)
    plants = parse_plants(os.environ.get("CKPTLAB_PEER_PLANT"))
    counter = torch_chains.load_counter(torch, args.build_dir)
    torch.set_num_threads(1)
    model = torch_chains.make_model(torch, config)
    problems = []
    rows = []
    for name in args.strategies:
        run = runs.get(name)
        if run is None:
            problems.append(f"{name}: not in ckptlab's results")
            continue
        items = check_run(name, run, units, config["depth"], problems)
        if items is None:
            continue
        peak, act = torch_chains.torch_peak(torch, counter, model, items, config["seed"],
                                            seed_bug=name.startswith("seed-bug"))
        ours = run["metrics"]["peak_bytes"] + plants.pop(name, 0)
        ok, text = verdict(name, ours, peak, rule_for(torch, config, name, items), none_equal)
        if not ok:
            problems.append(f"{name}: {text} (ckptlab {ours:,} B, PyTorch {peak:,} B)")
        rows.append((name, ours, peak, ours - peak, run["metrics"]["activation_bytes"], act,
                     "ok" if ok else "FAIL: " + text, run["schedule"]))
    for name in plants:
        problems.append(f"{name}: CKPTLAB_PEER_PLANT names a strategy that is not compared")

    c = config
    kv = f" KV={c['kv_heads']}" if c.get("kv_heads") else ""
    print(f"{c['block']} d={c['width']} S={c['seq']} B={c['batch']} H={c['heads']}{kv} "
          f"L={c['depth']} dropout={c['dropout']}; PyTorch {torch.__version__} non-reentrant "
          f"checkpoint, {sys.executable}; bytes above the step's start")
    print(f"{'strategy':<13} {'ckptlab peak':>13} {'PyTorch peak':>13} {'diff':>9} "
          f"{'ckptlab act':>12} {'PyTorch act':>12}  verdict")
    for name, ours, peak, diff, act_ours, act_theirs, text, schedule in rows:
        print(f"{name:<13} {ours:>13,} {peak:>13,} {diff:>+9,} {act_ours:>12,} "
              f"{act_theirs:>12,}  {text}")
        if args.verbose:
            print(f"{'':<13} schedule {schedule}")
    return problems


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cli", help="ckptlab-cli to run (not with --results)")
    p.add_argument("--block", choices=sorted(CHAINS), default="ffn")
    p.add_argument("--results", help="compare this results file instead of running the CLI")
    p.add_argument("--strategies", help="comma-separated (default: the block's test list, or "
                   "every run of --results)")
    p.add_argument("--build-dir", default=os.path.join(tempfile.gettempdir(),
                                                       "ckptlab_torch_peers"),
                   help="where the allocation counter is compiled (kept between runs)")
    p.add_argument("--cli-arg", action="append", default=[],
                   help="one more argument for ckptlab-cli sweep (repeatable)")
    p.add_argument("-v", "--verbose", action="store_true", help="print each schedule too")
    args = p.parse_args(argv)
    if bool(args.cli) == bool(args.results):
        p.error("give --cli (run ckptlab-cli) or --results (compare a results file)")
    torch = torch_chains.import_torch()
    if torch is None:
        print(f"{sys.executable} has no torch (Debian: apt install python3-torch): "
              + ("fails, CKPTLAB_REQUIRE_TORCH=1" if torch_required() else "skipped"))
        return 1 if torch_required() else SKIP

    started = time.monotonic()
    coverage = []
    if args.results:
        runs = torch_chains.load_runs(args.results)
        config = next(iter(runs.values()))["config"]
        args.strategies = args.strategies.split(",") if args.strategies else list(runs)
    else:
        config = CHAINS[args.block]["config"]
        if args.strategies:
            args.strategies = args.strategies.split(",")
        else:
            args.strategies = CHAINS[args.block]["strategies"]
            coverage = missing_kinds(args.cli, args.block, args.strategies)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "peers.json")
            status, stderr = torch_chains.run_cli(args.cli, config, args.strategies, path,
                                                  args.cli_arg)
            if status not in (0, 1) or not os.path.exists(path):
                print(f"ckptlab-cli failed (exit {status}):\n{stderr}")
                return 1
            if status == 1 and not any(s.startswith("seed-bug") for s in args.strategies):
                coverage.append(f"ckptlab-cli: exit 1 without seed-bug's gradient check: {stderr}")
            runs = torch_chains.load_runs(path)
    cli_seconds = time.monotonic() - started
    problems = coverage + compare(args, torch, runs, config)
    print(f"time: ckptlab-cli {cli_seconds:.1f} s, PyTorch "
          f"{time.monotonic() - started - cli_seconds:.1f} s")
    for problem in problems:
        print("FAIL " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
