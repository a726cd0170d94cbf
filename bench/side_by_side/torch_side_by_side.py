#!/usr/bin/python3
"""ckptlab's peak memory next to plain PyTorch's torch.utils.checkpoint, on CPU, to the byte.

The benchmark form of the side-by-side test (tests/side_by_side/test_torch_peers.py, which
ctest runs on small fixed chains): any size and strategy list, and PyTorch's reentrant
checkpoint beside the non-reentrant one (--reentrant). Both sides run the same model and count
the same bytes, through the allocator hook ckptlab's MemoryTracker uses; the chains, the
schedules and the counter are tests/side_by_side/torch_chains.py's. Every strategy runs: those
PyTorch names directly as plan_builder.cpp places them, revolve:S and optimal:MiB from the
schedule ckptlab ran, seed-bug:K with the tutorial's closure bug. Runs with the PyTorch of the
interpreter it is started with (Debian's python3-torch, or a venv's).

Usage (from the repository root, after building ckptlab-cli):
  /usr/bin/python3 bench/side_by_side/torch_side_by_side.py --block transformer \\
      --width 128 --seq 256 --batch 2 --heads 4 --dropout 0 --depth 4 \\
      --strategies none,full,attn,ffn,every:2,segments:2
Prints one line per strategy: ckptlab's peak, PyTorch's, the difference in bytes and both
sides' bytes at the end of the forward (those differ for nested checkpoints: PyTorch's first
forward runs the inner ones too, keeping their RNG states). Exit 1 when a strategy's
non-reentrant peak differs (--allow-diff to only report), 2 on bad arguments.
"""
import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "tests", "side_by_side"))
import torch_chains  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cli", default=os.path.join(ROOT, "build/release/app/ckptlab-cli"))
    p.add_argument("--block", choices=["ffn", "transformer"], default="transformer")
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--width", type=int, default=128)
    p.add_argument("--seq", type=int, default=256)
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--dropout", type=float, default=0.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--strategies", default="none,full,attn,ffn")
    p.add_argument("--reentrant", action="store_true",
                   help="also PyTorch's reentrant checkpoint, for reference (not for nested "
                   "schedules and seed-bug)")
    p.add_argument("--allow-diff", action="store_true", help="exit 0 even when peaks differ")
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build/side_by_side"))
    args = p.parse_args()
    strategies = [s for s in args.strategies.split(",") if s]
    if not strategies:
        p.error("--strategies: give at least one strategy")
    if args.block == "ffn":
        strategies = [s for s in strategies if s not in ("attn", "ffn")]
    torch = torch_chains.import_torch()
    if torch is None:
        p.error(f"{sys.executable} has no torch (Debian: apt install python3-torch)")
    config = {k: getattr(args, k) for k in ("block", "depth", "width", "seq", "batch", "heads",
                                            "dropout", "seed")}
    units = 2 if args.block == "transformer" else 1

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "side_by_side.json")
        status, stderr = torch_chains.run_cli(args.cli, config, strategies, path)
        if status not in (0, 1) or not os.path.exists(path):
            sys.exit(f"ckptlab-cli failed (exit {status}):\n{stderr}")
        runs = torch_chains.load_runs(path)
    counter = torch_chains.load_counter(torch, args.build_dir)
    torch.set_num_threads(1)
    model = torch_chains.make_model(torch, config)

    print(f"{args.block} d={args.width} S={args.seq} B={args.batch} H={args.heads} "
          f"L={args.depth} dropout={args.dropout}, torch {torch.__version__}")
    print(f"{'strategy':<30} {'ckptlab peak B':>15} {'PyTorch peak B':>15} {'diff B':>10}"
          f" {'ckptlab act B':>14} {'PyTorch act B':>14}")
    differ = False
    for name in strategies:
        run = runs[name]
        if run.get("error"):
            print(f"{name:<30} ckptlab's run failed: {run['error']}")
            differ = True
            continue
        items = (torch_chains.plan_of(name, args.depth, units)
                 or torch_chains.parse_schedule(run["schedule"]))
        mine = (run["metrics"]["peak_bytes"], run["metrics"]["activation_bytes"])
        for reentrant in [False, True] if args.reentrant and name != "none" else [False]:
            # The reentrant checkpoint's forward runs without grad: nested inside it, a
            # checkpoint's input needs no gradient and its parameters would get none.
            if reentrant and (name.startswith("seed-bug") or torch_chains.nesting(items) > 1):
                continue
            peak, act = torch_chains.torch_peak(torch, counter, model, items, args.seed,
                                                seed_bug=name.startswith("seed-bug"),
                                                reentrant=reentrant)
            label = name + (" (use_reentrant=True)" if reentrant else "")
            differ |= not reentrant and mine[0] != peak
            print(f"{label:<30} {mine[0]:>15,} {peak:>15,} {mine[0] - peak:>+10,} "
                  f"{mine[1]:>14,} {act:>14,}")
    return 1 if differ and not args.allow_diff else 0


if __name__ == "__main__":
    sys.exit(main())
