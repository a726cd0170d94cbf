#!/usr/bin/env python3
"""An independent measurement of the model ckptlab-cli measures, in plain PyTorch.

The block is core/src/engine/model.cpp's FfnBlock, x + Linear(4d->d)(ReLU(Linear(d->4d)(
LayerNorm(x)))), L of them in a chain, float32, input (B, S, d) with requires_grad, loss =
output.sum(), no optimizer. A strategy's schedule is the one ckptlab runs
(tests/side_by_side/torch_chains.py's plan_of, plan_builder.cpp's placement), each checkpoint a
torch.utils.checkpoint.checkpoint, non-reentrant unless the strategy is written NAME/reentrant.

Two measurements of each strategy's memory, on CUDA:
  - `allocator`: the caching allocator's statistics of the strategy's FIRST step, taken as
    ckptlab takes them: gradients set to None, torch.cuda.empty_cache() and
    reset_peak_memory_stats() at the start of the strategy (ckptlab's startCachingRun), then
    memory_allocated() / memory_reserved() at the step's start and max_memory_allocated() /
    max_memory_reserved() over the step (the names of ckptlab's results field `allocator`).
    Before the first strategy one no-checkpoint step runs (ckptlab's reference step), so that
    what lives across steps (cuBLAS workspaces, allocated through the caching allocator in
    torch 2.x) exists already; `held_across_steps_bytes` says how much that is.
  - `peak_bytes`: after the warm-up steps, max_memory_allocated() during one step minus what
    was allocated when it began, i.e. the definition of ckptlab's metrics.peak_bytes;
    `activation_bytes` = allocated after the forward minus the start.
The gradient check compares each strategy's gradients with the first strategy's, kept in host
memory (so that no copy sits in the device's allocator). On --device cpu (a dry run of the code
paths) nothing is measured in memory: those fields are null.

Usage: torch_reference.py OUT.json [--width 2048 --depth 20 --batch 2 --seq 2048]
           [--strategies none,full,full/reentrant,every:2] [--warmup 2 --repeats 5] [--device cuda]
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch
import torch.nn as nn

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                                "side_by_side"))
import torch_chains  # noqa: E402  (plan_of, run_items: the schedules ckptlab runs)

MiB = 1024.0 * 1024.0
DEFAULT_STRATEGIES = "none,full,full/reentrant,every:2,every:4,segments:4"


class FfnBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.up = nn.Linear(d, 4 * d)
        self.down = nn.Linear(4 * d, d)

    def forward(self, x):
        return x + self.down(torch.relu(self.up(self.norm(x))))


def parse_strategy(text, depth):
    """(label, schedule items, reentrant) of NAME or NAME/reentrant."""
    name, _, flag = text.partition("/")
    if flag not in ("", "reentrant"):
        raise SystemExit(f"--strategies: {text!r}: only NAME or NAME/reentrant")
    items = torch_chains.plan_of(name, depth, 1)
    if items is None:
        raise SystemExit(f"--strategies: {name!r} has no fixed schedule here (none, full, "
                         "every:K, segments:K, sqrt, from:K, upto:K)")
    label = name + (" (use_reentrant=True)" if flag else "")
    return label, items, bool(flag)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--width", type=int, default=2048)
    p.add_argument("--depth", type=int, default=20)
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--seq", type=int, default=2048)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--strategies", default=DEFAULT_STRATEGIES,
                   help="comma-separated ckptlab strategies, NAME/reentrant for use_reentrant=True "
                   f"(default {DEFAULT_STRATEGIES})")
    p.add_argument("--device", default="cuda", choices=["cuda", "cpu"],
                   help="cuda (default), or cpu for a dry run of the code paths: no memory figures")
    a = p.parse_args()
    if a.repeats < 1 or a.warmup < 0:
        raise SystemExit("--repeats must be at least 1 and --warmup at least 0")
    strategies = [parse_strategy(s.strip(), a.depth) for s in a.strategies.split(",") if s.strip()]

    dev = torch.device(a.device)
    cuda = dev.type == "cuda"
    if cuda and not torch.cuda.is_available():
        print("torch_reference.py: torch.cuda.is_available() is False: no CUDA device "
              f"(torch {torch.__version__}, CUDA {torch.version.cuda}); use --device cpu for a "
              "dry run", file=sys.stderr)
        return 3

    def sync():
        if cuda:
            torch.cuda.synchronize()

    def allocated():
        return torch.cuda.memory_allocated() if cuda else None

    torch.manual_seed(0)
    blocks = [FfnBlock(a.width).to(dev) for _ in range(a.depth)]
    params = [q for b in blocks for q in b.parameters()]
    inp = torch.randn(a.batch, a.seq, a.width, device=dev, requires_grad=True)
    result = {
        "what": "plain PyTorch, core/src/engine/model.cpp's FfnBlock chain, float32, loss=sum",
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "device": torch.cuda.get_device_name(0) if cuda else "cpu",
        "allow_tf32_matmul": getattr(torch.backends.cuda.matmul, "allow_tf32", None),
        "config": vars(a),
        "parameter_bytes": sum(q.numel() * q.element_size() for q in params),
        "input_bytes": inp.numel() * inp.element_size(),
        "protocol": ("allocator: first step of each strategy after empty_cache() and "
                     "reset_peak_memory_stats() (ckptlab's startCachingRun); peak_bytes: "
                     "max_memory_allocated() above the start of a step after the warm-up"),
        "runs": [],
    }

    def clear():
        inp.grad = None
        for q in params:
            q.grad = None

    def one_step(items, reentrant, measure_memory):
        clear()
        sync()
        base = allocated()
        if measure_memory and cuda:
            torch.cuda.reset_peak_memory_stats()
        t0 = time.perf_counter()
        out = torch_chains.run_items(torch, blocks, items, inp, reentrant)
        sync()
        t1 = time.perf_counter()
        act = allocated() - base if cuda else None
        loss = out.sum()
        loss.backward()
        sync()
        t2 = time.perf_counter()
        peak = torch.cuda.max_memory_allocated() - base if cuda else None
        del loss, out
        return {"peak": peak, "act": act, "fwd_ms": (t1 - t0) * 1e3, "bwd_ms": (t2 - t1) * 1e3,
                "step_ms": (t2 - t0) * 1e3}

    def first_step_stats(items, reentrant):
        """The caching allocator's view of a strategy's first step, as ckptlab measures it."""
        clear()
        sync()
        if not cuda:
            one_step(items, reentrant, False)
            return None
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        start_allocated = torch.cuda.memory_allocated()
        start_reserved = torch.cuda.memory_reserved()
        one_step(items, reentrant, False)
        return {"source": "torch.cuda", "allocated_start": start_allocated,
                "allocated_peak": torch.cuda.max_memory_allocated(),
                "reserved_start": start_reserved,
                "reserved_peak": torch.cuda.max_memory_reserved()}

    # ckptlab's reference step: a no-checkpoint step first, so that handles and workspaces exist.
    one_step(torch_chains.plan_of("none", a.depth, 1), False, False)
    clear()
    sync()
    if cuda:
        torch.cuda.empty_cache()
        held = torch.cuda.memory_allocated()
        result["after_first_step"] = {"allocated": held, "reserved": torch.cuda.memory_reserved()}
        result["held_across_steps_bytes"] = held - result["parameter_bytes"] - result["input_bytes"]

    reference = None
    for label, items, reentrant in strategies:
        try:
            stats = first_step_stats(items, reentrant)
            for _ in range(a.warmup):
                one_step(items, reentrant, False)
            mem = one_step(items, reentrant, True)
            grads = [inp.grad] + [q.grad for q in params]
            if reference is None:
                reference = [g.detach().to("cpu", copy=True) for g in grads]
                diff = 0.0
            else:
                diff = max(float((r.to(dev) - g).abs().max()) for r, g in zip(reference, grads))
            del grads
            times = [one_step(items, reentrant, False) for _ in range(a.repeats)]
            run = {
                "strategy": label,
                "schedule": torch_chains.describe(items),
                "allocator": stats,
                "peak_bytes": mem["peak"],
                "peak_mib": None if mem["peak"] is None else round(mem["peak"] / MiB, 2),
                "activation_bytes": mem["act"],
                "activation_mib": None if mem["act"] is None else round(mem["act"] / MiB, 2),
                "step_ms_median": round(statistics.median(t["step_ms"] for t in times), 2),
                "step_ms_min": round(min(t["step_ms"] for t in times), 2),
                "forward_ms_median": round(statistics.median(t["fwd_ms"] for t in times), 2),
                "backward_ms_median": round(statistics.median(t["bwd_ms"] for t in times), 2),
                "grad_max_abs_diff_vs_none": diff,
            }
        except Exception as e:  # keep the other strategies
            run = {"strategy": label, "error": repr(e)[:500]}
            if cuda:
                torch.cuda.empty_cache()
        result["runs"].append(run)
        print(json.dumps(run), flush=True)
        clear()
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
