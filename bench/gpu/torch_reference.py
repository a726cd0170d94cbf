#!/usr/bin/env python3
"""An independent measurement of the model ckptlab-cli measures, in plain PyTorch.

The block is core/src/engine/model.cpp's FfnBlock, x + Linear(4d->d)(ReLU(Linear(d->4d)(
LayerNorm(x)))), L of them in a chain, float32, input (B, S, d) with requires_grad, loss =
output.sum(), no optimizer. Peak = torch.cuda.max_memory_allocated() during one step minus what
was allocated when it began (parameters and input; gradients set to None first), i.e. the
definition of ckptlab's peak_bytes. Activations = allocated after the forward minus the start.

Usage: torch_reference.py OUT.json [--width 2048 --depth 20 --batch 2 --seq 2048]
"""
import argparse
import json
import statistics
import sys
import time

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

MiB = 1024.0 * 1024.0


class FfnBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.up = nn.Linear(d, 4 * d)
        self.down = nn.Linear(4 * d, d)

    def forward(self, x):
        return x + self.down(torch.relu(self.up(self.norm(x))))


def segments_of(depth, count):
    """Balanced contiguous segments, sizes differing by at most one (strategy.cpp)."""
    base, extra = divmod(depth, count)
    out, begin = [], 0
    for i in range(count):
        size = base + (1 if i < extra else 0)
        out.append((begin, begin + size))
        begin += size
    return out


def run_chain(blocks, x, strategy):
    name, reentrant = strategy
    depth = len(blocks)
    if name == "none":
        for b in blocks:
            x = b(x)
        return x
    if name == "full" or name.startswith("every:"):
        n = 1 if name == "full" else int(name.split(":")[1])
        for i, b in enumerate(blocks):
            x = checkpoint(b, x, use_reentrant=reentrant) if i % n == 0 else b(x)
        return x
    if name.startswith("segments:"):
        for begin, end in segments_of(depth, int(name.split(":")[1])):
            seg = blocks[begin:end]

            def body(y, seg=seg):
                for b in seg:
                    y = b(y)
                return y

            x = checkpoint(body, x, use_reentrant=reentrant)
        return x
    raise ValueError(name)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--width", type=int, default=2048)
    p.add_argument("--depth", type=int, default=20)
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--seq", type=int, default=2048)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--repeats", type=int, default=5)
    a = p.parse_args()

    dev = torch.device("cuda")
    torch.manual_seed(0)
    blocks = [FfnBlock(a.width).to(dev) for _ in range(a.depth)]
    params = [q for b in blocks for q in b.parameters()]
    inp = torch.randn(a.batch, a.seq, a.width, device=dev, requires_grad=True)
    result = {
        "what": "plain PyTorch, core/src/engine/model.cpp's FfnBlock chain, float32, loss=sum",
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "device": torch.cuda.get_device_name(0),
        "allow_tf32_matmul": getattr(torch.backends.cuda.matmul, "allow_tf32", None),
        "config": vars(a),
        "parameter_bytes": sum(q.numel() * q.element_size() for q in params),
        "input_bytes": inp.numel() * inp.element_size(),
        "runs": [],
    }

    def clear():
        inp.grad = None
        for q in params:
            q.grad = None

    def one_step(strategy, measure_memory):
        clear()
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        if measure_memory:
            torch.cuda.reset_peak_memory_stats()
        t0 = time.perf_counter()
        out = run_chain(blocks, inp, strategy)
        torch.cuda.synchronize()
        t1 = time.perf_counter()
        act = torch.cuda.memory_allocated() - base
        loss = out.sum()
        loss.backward()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        peak = torch.cuda.max_memory_allocated() - base
        del loss, out
        return {"peak": peak, "act": act, "fwd_ms": (t1 - t0) * 1e3, "bwd_ms": (t2 - t1) * 1e3,
                "step_ms": (t2 - t0) * 1e3}

    strategies = [("none", False), ("full", False), ("full", True), ("every:2", False),
                  ("every:4", False), ("segments:4", False)]
    reference = None
    for strategy in strategies:
        label = strategy[0] + (" (use_reentrant=True)" if strategy[1] else "")
        try:
            # Warm-up first so that cuBLAS workspaces and the like exist before the measured step.
            for _ in range(a.warmup):
                one_step(strategy, False)
            mem = one_step(strategy, True)
            grads = [inp.grad] + [q.grad for q in params]
            if reference is None:
                reference = [g.detach().clone() for g in grads]
                diff = 0.0
            else:
                diff = max(float((r - g).abs().max()) for r, g in zip(reference, grads))
            del grads
            times = [one_step(strategy, False) for _ in range(a.repeats)]
            run = {
                "strategy": label,
                "peak_bytes": mem["peak"],
                "peak_mib": round(mem["peak"] / MiB, 2),
                "activation_bytes": mem["act"],
                "activation_mib": round(mem["act"] / MiB, 2),
                "step_ms_median": round(statistics.median(t["step_ms"] for t in times), 2),
                "step_ms_min": round(min(t["step_ms"] for t in times), 2),
                "forward_ms_median": round(statistics.median(t["fwd_ms"] for t in times), 2),
                "backward_ms_median": round(statistics.median(t["bwd_ms"] for t in times), 2),
                "grad_max_abs_diff_vs_none": diff,
            }
        except Exception as e:  # keep the other strategies
            run = {"strategy": label, "error": repr(e)[:500]}
            torch.cuda.empty_cache()
        result["runs"].append(run)
        print(json.dumps(run), flush=True)
        clear()
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
