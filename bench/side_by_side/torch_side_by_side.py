#!/usr/bin/python3
"""ckptlab's peak memory next to plain PyTorch's torch.utils.checkpoint, on CPU, to the byte.

Both sides run the same model (core/src/engine/model.cpp: the FFN block or the pre-LN
transformer block, float32, loss = output.sum(), no optimizer) and count the same bytes: every
CPU allocation and free of one step, from the moment the gradients were set to None, through
the allocator hook ckptlab's MemoryTracker uses (alloc_peak.cpp, loaded with ctypes). The
PyTorch side runs torch.utils.checkpoint with use_reentrant=False (and =True for `full`, for
reference). Needs Debian's python3-torch, which shares libc10 with the LibTorch ckptlab links.

Usage (from the repository root, after building ckptlab-cli):
  /usr/bin/python3 bench/side_by_side/torch_side_by_side.py --block transformer \
      --width 128 --seq 256 --batch 2 --heads 4 --dropout 0 --depth 4 \
      --strategies none,full,attn,ffn,every:2,segments:2
Prints one line per strategy: ckptlab's peak, PyTorch's, and the difference in bytes. Exit 1
when a strategy differs (--allow-diff to only report), 2 on bad arguments.
"""
import argparse
import ctypes
import json
import math
import os
import subprocess
import sys
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def load_counter(build_dir):
    """Compiles alloc_peak.cpp once (against the system's LibTorch headers) and loads it."""
    os.makedirs(build_dir, exist_ok=True)
    lib = os.path.join(build_dir, "libckptlab_alloc_peak.so")
    src = os.path.join(HERE, "alloc_peak.cpp")
    if not os.path.exists(lib) or os.path.getmtime(lib) < os.path.getmtime(src):
        abi = int(torch._C._GLIBCXX_USE_CXX11_ABI)
        subprocess.check_call(["g++", "-O2", "-shared", "-fPIC", "-std=c++17",
                               f"-D_GLIBCXX_USE_CXX11_ABI={abi}", src, "-o", lib, "-lc10"])
    counter = ctypes.CDLL(lib)
    counter.peak_stop.restype = ctypes.c_longlong
    counter.peak_total.restype = ctypes.c_longlong
    return counter


class FfnBlock(nn.Module):
    """x + Linear(4d->d)(ReLU(Linear(d->4d)(LayerNorm(x)))): model.cpp's FfnBlock."""

    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.up = nn.Linear(d, 4 * d)
        self.down = nn.Linear(4 * d, d)

    def ffn(self, x):
        return self.down(torch.relu(self.up(self.norm(x))))

    def parts(self):
        return [lambda x: x + self.ffn(x)]


class TransformerBlock(nn.Module):
    """model.cpp's TransformerBlock: x + attention(x), then x + ffn(x), the same ops in order."""

    def __init__(self, d, heads, dropout):
        super().__init__()
        self.heads, self.dropout = heads, dropout
        self.norm = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ffn = FfnBlock(d)

    def attention(self, x):
        b, s, d = x.shape
        dh = d // self.heads
        qkv = self.qkv(self.norm(x)).view(b, s, 3, self.heads, dh).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        # aten's div.Scalar, as C++'s `tensor / double` calls it: Python's `/` would wrap the
        # number in an 8-byte tensor that its backward keeps.
        scores = torch.ops.aten.div.Scalar(torch.matmul(q, k.transpose(-2, -1)), math.sqrt(dh))
        probs = F.dropout(torch.softmax(scores, -1), self.dropout, self.training)
        return self.proj(torch.matmul(probs, v).transpose(1, 2).reshape(b, s, d))

    def parts(self):
        return [lambda x: x + self.attention(x), lambda x: x + self.ffn.ffn(x)]


def balanced(depth, count):
    """plan_builder.cpp's balancedSegments."""
    return [(depth * k // count, depth * (k + 1) // count) for k in range(count)]


def run_chain(blocks, x, name, reentrant):
    """The forward of one strategy; each checkpoint as plan_builder.cpp places it."""
    depth = len(blocks)

    def whole(i):
        return lambda y: run_blocks(blocks[i:i + 1], y)

    def ckpt(fn, y):
        return checkpoint(fn, y, use_reentrant=reentrant)

    kind, _, param = name.partition(":")
    if kind == "none":
        return run_blocks(blocks, x)
    if kind in ("full", "every", "from", "upto"):
        n = int(param) if param else 0
        for i in range(depth):
            chosen = {"full": True, "every": i % max(n, 1) == 0, "from": i >= n,
                      "upto": i < n}[kind]
            x = ckpt(whole(i), x) if chosen else run_blocks(blocks[i:i + 1], x)
        return x
    if kind in ("segments", "sqrt"):
        count = int(param) if kind == "segments" else math.ceil(math.sqrt(depth))
        for begin, end in balanced(depth, count):
            x = ckpt(lambda y, b=begin, e=end: run_blocks(blocks[b:e], y), x)
        return x
    if kind in ("attn", "ffn") and isinstance(blocks[0], TransformerBlock):
        selected = 0 if kind == "attn" else 1
        for block in blocks:
            for index, part in enumerate(block.parts()):
                x = ckpt(part, x) if index == selected else part(x)
        return x
    raise SystemExit(f"torch_side_by_side.py: strategy {name!r} is not supported here")


def run_blocks(blocks, x):
    for block in blocks:
        for part in block.parts():
            x = part(x)
    return x


def torch_peaks(args, counter):
    torch.manual_seed(args.seed)
    if args.block == "ffn":
        blocks = [FfnBlock(args.width) for _ in range(args.depth)]
    else:
        blocks = [TransformerBlock(args.width, args.heads, args.dropout) for _ in range(args.depth)]
    params = [p for b in blocks for p in b.parameters()]
    inp = torch.randn(args.batch, args.seq, args.width, requires_grad=True)
    peaks = {}
    for name in args.strategies:
        for reentrant in ([False, True] if name == "full" and args.reentrant else [False]):
            inp.grad = None
            for p in params:
                p.grad = None
            torch.manual_seed(args.seed + 1)
            counter.peak_start()
            out = run_chain(blocks, inp, name, reentrant)
            activations = counter.peak_total()
            loss = out.sum()
            loss.backward()
            del loss, out
            peak = counter.peak_stop()
            peaks[name + (" (use_reentrant=True)" if reentrant else "")] = (peak, activations)
    return peaks


def ckptlab_peaks(args):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "side_by_side.json")
        cmd = [args.cli, "sweep", "--quiet", "--block", args.block, "--depth", str(args.depth),
               "--width", str(args.width), "--seq", str(args.seq), "--batch", str(args.batch),
               "--heads", str(args.heads), "--dropout", str(args.dropout), "--threads", "1",
               "--warmup", "0", "--repeats", "1", "--strategies", ",".join(args.strategies),
               "--json", out]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            runs = json.load(f)["runs"]
    return {r["strategy"]: (r["metrics"]["peak_bytes"], r["metrics"]["activation_bytes"])
            for r in runs}


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
    p.add_argument("--reentrant", action="store_true", help="also PyTorch's reentrant `full`")
    p.add_argument("--allow-diff", action="store_true", help="exit 0 even when peaks differ")
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build/side_by_side"))
    args = p.parse_args()
    args.strategies = [s for s in args.strategies.split(",") if s]
    if not args.strategies:
        p.error("--strategies: give at least one strategy")
    if args.block == "ffn":
        args.strategies = [s for s in args.strategies if s not in ("attn", "ffn")]
    torch.set_num_threads(1)

    ours = ckptlab_peaks(args)
    theirs = torch_peaks(args, load_counter(args.build_dir))
    print(f"{args.block} d={args.width} S={args.seq} B={args.batch} H={args.heads} "
          f"L={args.depth} dropout={args.dropout}, torch {torch.__version__}")
    print(f"{'strategy':<30} {'ckptlab peak B':>15} {'PyTorch peak B':>15} {'diff B':>10}"
          f" {'ckptlab act B':>14} {'PyTorch act B':>14}")
    differ = False
    for name, (peak, act) in theirs.items():
        mine = ours.get(name.split(" ")[0])
        if mine is None:
            continue
        diff = mine[0] - peak
        reference = "(" not in name
        differ |= reference and (diff != 0 or mine[1] != act)
        print(f"{name:<30} {mine[0]:>15,} {peak:>15,} {diff:>+10,} {mine[1]:>14,} {act:>14,}")
    return 1 if differ and not args.allow_diff else 0


if __name__ == "__main__":
    sys.exit(main())
