"""ckptlab's seed-bug:K gradients against the tutorial's own segment code in plain PyTorch.

The tutorial (experiment 2, `run_with_segment_checkpointing`) defines `segment_forward` inside
its loop; the closure reads `segment_blocks` when it runs, so every recompute runs the LAST
segment's blocks. Called as `checkpoint(segment_forward, x, use_reentrant=False)`, PyTorch keeps
each segment's own graph and swaps in the tensors the recompute saved: segment k's parameters
and input get the last segment's gradients at segment k's input. ckptlab's `seed-bug:K` must
give the same gradients.

ckptlab_seed_bug_gradients (seed_bug_gradients.cpp) writes the engine's weights, input and
gradients of `none` and `seed-bug:K` for the side-by-side chain (test_torch_peers.CHAINS, with
dropout 0: the two sides draw from different generators). This script loads the same weights
and input into the PyTorch chain (torch_chains.make_model), runs the tutorial's code as written
and the chain without checkpointing, and checks, tensor by tensor:
  - the weights are shared: ckptlab's `none` gradients equal PyTorch's plain run's;
  - ckptlab's `seed-bug:K` gradients equal PyTorch's tutorial run's (the input's too);
  - which are wrong: every block before the last segment and the input get a wrong gradient
    (none is left without one), the last segment's blocks the right one, on both sides; one
    tensor before the last segment is right, the bias of the last linear layer just before it
    (its gradient is the sum of the last segment's input gradient, and that one is right).

    test_seed_bug_peer.py --dumper build/release/tests/side_by_side/ckptlab_seed_bug_gradients \
        --block ffn [--also-python ~/.cache/ckptlab/<venv>/bin/python]

--also-python runs the PyTorch side again under another interpreter (another torch) on the same
dump. Exit 0 when every check holds, 1 when one fails, 77 when this interpreter has no torch
(1 with CKPTLAB_REQUIRE_TORCH=1); an --also-python without torch is skipped with a note.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from array import array

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_chains  # noqa: E402
from test_torch_peers import CHAINS, SKIP, torch_required  # noqa: E402

BLOCKS = ("ffn", "transformer")  # the chains whose PyTorch peer copies ckptlab's ops


def chain_of(block):
    """The side-by-side chain's config (dropout 0) and its seed-bug:K's K."""
    config = dict(CHAINS[block]["config"], dropout=0.0)
    k = next(int(s.split(":")[1]) for s in CHAINS[block]["strategies"]
             if s.startswith("seed-bug:"))
    return config, k


def run_dumper(dumper, config, k, base):
    c = config
    cmd = [dumper, c["block"], str(c["depth"]), str(c["width"]), str(c["seq"]),
           str(c["batch"]), str(c["heads"]), str(k), base]
    subprocess.run(cmd, check=True)


def load_dump(torch, base):
    """{name: tensor or None} of seed_bug_gradients.cpp's OUT.json and OUT.bin."""
    with open(base + ".json") as f:
        entries = json.load(f)["tensors"]
    data = array("f")
    with open(base + ".bin", "rb") as f:
        data.frombytes(f.read())
    tensors = {}
    for e in entries:
        if e["shape"] is None:
            tensors[e["name"]] = None
            continue
        n = 1
        for s in e["shape"]:
            n *= s
        values = data[e["offset"]:e["offset"] + n]
        tensors[e["name"]] = torch.tensor(values, dtype=torch.float32).reshape(e["shape"])
    return tensors


# The tutorial's experiment 2 as it is written (../shared/seed, "实验2：分段 Checkpoint"), the
# docstring shortened.
def run_with_segment_checkpointing(blocks, x, num_segments=4):
    from torch.utils.checkpoint import checkpoint
    segment_size = len(blocks) // num_segments

    for i in range(0, len(blocks), segment_size):
        segment_blocks = blocks[i:i+segment_size]

        # 定义segment的前向传播函数
        def segment_forward(x):
            for block in segment_blocks:
                x = block(x)
            return x

        x = checkpoint(segment_forward, x, use_reentrant=False)

    return x


def run_without_checkpointing(blocks, x):
    for block in blocks:
        x = block(x)
    return x


def torch_gradients(torch, config, k, dump, tutorial):
    """PyTorch's gradients (input first, then the parameters) on the dump's weights and input."""
    torch.set_num_threads(1)
    units, params, inp = torch_chains.make_model(torch, config)
    per_block = len(units) // config["depth"]
    with torch.no_grad():
        for i, p in enumerate(params):
            p.copy_(dump[f"weight/{i}"])
    x = dump["input"].clone().requires_grad_(True)

    def block_of(parts):
        def block(y):
            for part in parts:
                y = part(y)
            return y
        return block

    blocks = [block_of(units[b * per_block:(b + 1) * per_block]) for b in range(config["depth"])]
    if tutorial:
        out = run_with_segment_checkpointing(blocks, x, num_segments=k)
    else:
        out = run_without_checkpointing(blocks, x)
    out.sum().backward()  # the engine's loss: the output's sum
    return [x.grad] + [p.grad for p in params], len(params) // config["depth"]


def close(torch, a, b, scale):
    """Same float32 values up to the rounding of a different kernel order: relative to the
    reference's largest magnitude."""
    if a is None or b is None:
        return a is None and b is None
    return bool((a - b).abs().max() <= 1e-4 * scale + 1e-6)


def label(torch, grad, right, scale):
    if grad is None:
        return "none"
    return "right" if close(torch, grad, right, scale) else "wrong"


def compare(torch, config, k, dump):
    problems = []
    plain, per_block = torch_gradients(torch, config, k, dump, tutorial=False)
    buggy, _ = torch_gradients(torch, config, k, dump, tutorial=True)
    depth = config["depth"]
    last_begin = depth - depth // k  # the tutorial's segments: depth // k blocks each
    rows = []
    names = ["input"] + [f"block {i // per_block} param {i % per_block}"
                         for i in range(len(plain) - 1)]
    for i, name in enumerate(names):
        ours_none, ours_bug = dump[f"none/{i}"], dump[f"seed-bug/{i}"]
        scale = float(plain[i].abs().max())
        if not close(torch, ours_none, plain[i], scale):
            problems.append(f"{name}: ckptlab's none differs from PyTorch's plain run (the "
                            "weights or input are not shared)")
        theirs = label(torch, buggy[i], plain[i], scale)
        ours = label(torch, ours_bug, ours_none, scale)
        block = -1 if i == 0 else (i - 1) // per_block
        # Right: the last segment's, and the last bias before it, whose gradient is the sum of
        # the last segment's input gradient (right) and needs nothing the recompute saved.
        last_bias = block == last_begin - 1 and (i - 1) % per_block == per_block - 1
        expected = "right" if block >= last_begin or last_bias else "wrong"
        if theirs != expected:
            problems.append(f"{name}: PyTorch's tutorial code gives a {theirs} gradient, "
                            f"expected {expected}")
        if ours != theirs:
            problems.append(f"{name}: ckptlab's seed-bug gives a {ours} gradient, PyTorch's "
                            f"tutorial code a {theirs} one")
        elif not close(torch, ours_bug, buggy[i], scale):
            problems.append(f"{name}: ckptlab's seed-bug gradient is not PyTorch's")
        diff = float((ours_bug - buggy[i]).abs().max()) / scale if ours_bug is not None else -1
        rows.append((name, ours, theirs, diff))
    print(f"{config['block']} d={config['width']} S={config['seq']} B={config['batch']} "
          f"L={depth} seed-bug:{k} (dropout 0); PyTorch {torch.__version__}, {sys.executable}")
    print(f"{'gradient':<22} {'ckptlab':>8} {'PyTorch':>8} {'|ckptlab - PyTorch| / max':>26}")
    for name, ours, theirs, diff in rows:
        if name == "input" or name.endswith("param 0"):  # one row per block
            print(f"{name:<22} {ours:>8} {theirs:>8} {diff:>26.2e}")
    return problems


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--block", choices=BLOCKS, default="ffn")
    p.add_argument("--dumper", help="ckptlab_seed_bug_gradients to run")
    p.add_argument("--dump", help="compare this dump (OUT of the dumper) instead of running it")
    p.add_argument("--also-python", action="append", default=[],
                   help="run the PyTorch side again under this interpreter (repeatable)")
    args = p.parse_args(argv)
    if bool(args.dumper) == bool(args.dump):
        p.error("give --dumper (run it) or --dump (compare an existing dump)")
    torch = torch_chains.import_torch()
    if torch is None:
        print(f"{sys.executable} has no torch (Debian: apt install python3-torch): "
              + ("fails, CKPTLAB_REQUIRE_TORCH=1" if torch_required() else "skipped"))
        return 1 if torch_required() else SKIP
    config, k = chain_of(args.block)
    if config["depth"] % k:
        p.error(f"the tutorial's segments are {config['depth']} // {k} blocks: choose a "
                "depth K divides")
    with tempfile.TemporaryDirectory() as tmp:
        base = args.dump
        if base is None:
            base = os.path.join(tmp, "seed_bug")
            run_dumper(args.dumper, config, k, base)
        problems = compare(torch, config, k, load_dump(torch, base))
        for python in args.also_python:
            if os.path.realpath(python) == os.path.realpath(sys.executable):
                continue
            done = subprocess.run([python, os.path.abspath(__file__), "--block", args.block,
                                   "--dump", base], env=dict(os.environ, CKPTLAB_REQUIRE_TORCH=""))
            if done.returncode == SKIP:
                print(f"{python}: no torch, skipped")
            elif done.returncode != 0:
                problems.append(f"{python}: its PyTorch's comparison failed (exit "
                                f"{done.returncode}, above)")
    for problem in problems:
        print("FAIL " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
