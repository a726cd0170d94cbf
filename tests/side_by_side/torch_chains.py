"""ckptlab's chains in plain PyTorch, and their peaks counted as ckptlab's tracker counts them.

Shared by the side-by-side test (test_torch_peers.py) and the benchmark script
(bench/side_by_side/torch_side_by_side.py).

Both sides run the same model (core/src/engine/model.cpp: the FFN block or the pre-LN
transformer block, float32, loss = output.sum(), no optimizer; the Llama block as a Hugging Face
user writes it, transformers' modeling_llama.py, see make_model) and count the same bytes: every
CPU allocation and free of one step, from the moment the gradients were set to None, through
the allocator hook ckptlab's MemoryTracker uses (alloc_peak.cpp, compiled against the running
torch's headers and loaded with ctypes).

A schedule is a list of items: a unit (an int; a transformer or Llama block is two units,
attention then FFN (MLP), an FFN block one) or a checkpoint (begin, end, items). Its text is describeSchedule's
(core/src/planning/schedule_tools.cpp): "ckpt[0,4){ckpt[0,2){0 1} 2 3} 4 5". PyTorch runs a
checkpoint as torch.utils.checkpoint.checkpoint(body, x, use_reentrant=False), nested ones
inside their body, so every schedule ckptlab runs (built-in, Revolve, the optimal planner's)
runs in PyTorch too.
"""
import ctypes
import functools
import hashlib
import json
import math
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def import_torch():
    """torch, or None when this interpreter has none (the tests then skip)."""
    try:
        import torch  # noqa: F401
    except ImportError:
        return None
    return torch


# ---------------------------------------------------------------------------------------------
# Schedules


def balanced(depth, count):
    """plan_builder.cpp's balancedSegments: sizes differ by at most one, the larger last."""
    return [(depth * k // count, depth * (k + 1) // count) for k in range(count)]


def _block_checkpoints(flags, units):
    items = []
    for block, chosen in enumerate(flags):
        body = list(range(block * units, (block + 1) * units))
        items += [(body[0], body[-1] + 1, body)] if chosen else body
    return items


def _segments(pairs, units):
    return [(b * units, e * units, list(range(b * units, e * units))) for b, e in pairs]


def plan_of(strategy, depth, units):
    """The unit-level schedule a strategy names, as plan_builder.cpp places its checkpoints;
    None for the schedules that are computed (revolve:S, optimal:MiB): those come from the
    results file. `units`: sub-blocks per block (1 ffn, 2 transformer)."""
    kind, _, param = strategy.partition(":")
    n = int(param) if param and kind != "optimal" else 0
    if kind == "none":
        return list(range(depth * units))
    if kind in ("full", "every", "from", "upto"):
        flags = [{"full": True, "every": n > 0 and i % n == 0, "from": i >= n,
                  "upto": i < n}[kind] for i in range(depth)]
        return _block_checkpoints(flags, units)
    if kind in ("segments", "seed-bug"):
        return _segments(balanced(depth, n), units)
    if kind == "sqrt":
        return _segments(balanced(depth, math.ceil(math.sqrt(depth))), units)
    if kind in ("attn", "ffn") and units == 2:
        selected = 0 if kind == "attn" else 1
        return [(u, u + 1, [u]) if u % 2 == selected else u for u in range(depth * units)]
    return None


def describe(items):
    """describeSchedule's text of a schedule."""
    return " ".join(str(i) if isinstance(i, int) else f"ckpt[{i[0]},{i[1]}){{{describe(i[2])}}}"
                    for i in items)


def nesting(items):
    """Levels of checkpoints inside each other (0: none)."""
    return max([1 + nesting(i[2]) for i in items if not isinstance(i, int)], default=0)


_TOKEN = re.compile(r"ckpt\[(\d+),(\d+)\)\{|\}|(\d+)| ")


def parse_schedule(text):
    """describeSchedule's text back into items; ValueError names the position of a bad one."""
    stack = [[]]
    heads = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError(f"schedule {text!r}: unexpected {text[pos]!r} at {pos}")
        if m.group(1) is not None:
            heads.append((int(m.group(1)), int(m.group(2))))
            stack.append([])
        elif m.group(0) == "}":
            if not heads:
                raise ValueError(f"schedule {text!r}: '}}' without a checkpoint at {pos}")
            body = stack.pop()
            begin, end = heads.pop()
            stack[-1].append((begin, end, body))
        elif m.group(3) is not None:
            stack[-1].append(int(m.group(3)))
        pos = m.end()
    if heads:
        raise ValueError(f"schedule {text!r}: a checkpoint is not closed")
    return stack[0]


# ---------------------------------------------------------------------------------------------
# The allocation counter


def load_counter(torch, build_dir):
    """Compiles alloc_peak.cpp for this torch (its headers, the libc10 this process loaded) once
    per torch build, and loads it."""
    libc10 = next((line.split()[-1] for line in open("/proc/self/maps")
                   if re.search(r"/libc10\.so", line)), None)
    if libc10 is None:
        raise RuntimeError("torch is imported but no libc10.so is mapped")
    # torch/include: a wheel's own headers; Debian's links to libtorch-dev's in /usr/include.
    includes = [p for p in [os.path.join(os.path.dirname(torch.__file__), "include")]
                if os.path.isdir(p)]
    src = os.path.join(HERE, "alloc_peak.cpp")
    key = hashlib.sha1((torch.__version__ + libc10 + repr(includes)).encode()).hexdigest()[:12]
    os.makedirs(build_dir, exist_ok=True)
    lib = os.path.join(build_dir, f"libckptlab_alloc_peak_{key}.so")
    if not os.path.exists(lib) or os.path.getmtime(lib) < os.path.getmtime(src):
        abi = int(torch._C._GLIBCXX_USE_CXX11_ABI)
        fd, scratch = tempfile.mkstemp(suffix=".so", dir=build_dir)
        os.close(fd)
        cmd = (["g++", "-O1", "-w", "-shared", "-fPIC", "-std=c++17", f"-D_GLIBCXX_USE_CXX11_ABI={abi}"]
               + [f"-I{p}" for p in includes] + [src, "-o", scratch, libc10])
        try:
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            os.replace(scratch, lib)  # tests running side by side compile the same file
        finally:
            if os.path.exists(scratch):
                os.unlink(scratch)
    counter = ctypes.CDLL(lib)
    counter.peak_stop.restype = ctypes.c_longlong
    counter.peak_total.restype = ctypes.c_longlong
    return counter


# ---------------------------------------------------------------------------------------------
# The model


class Units(list):
    """units[u] is unit u's function (x, *context) -> x + f(x). `context`, when set, makes the
    tensors every unit reads that the model computes once per step before its layers (the
    Llama peer's rotary cos/sin and causal mask, as LlamaModel.forward does): torch_peak calls
    it inside the counted step and hands its tensors to every unit and checkpoint, as
    transformers' gradient checkpointing passes them to each decoder layer."""
    context = None


def llama_ffn_width(config):
    """ffnWidthOf (core/src/model/config.cpp): ffn_width, or 8/3 d rounded up to 256."""
    if config.get("ffn_width"):
        return config["ffn_width"]
    return (2 * 4 * config["width"] // 3 + 255) // 256 * 256


def llama_blocks(torch, config):
    """The Llama decoder layer as transformers' modeling_llama.py writes it (4.4x, eager
    attention, fp32, no dropout): LlamaRMSNorm, LlamaRotaryEmbedding, apply_rotary_pos_emb,
    repeat_kv (which copies k and v for grouped-query attention), eager_attention_forward
    (scores, + the causal mask, softmax in fp32, @ v), LlamaMLP (down(silu(gate(x)) * up(x)));
    biases on q, k and v with qkv_bias (Qwen2), none elsewhere. Returns (units, params)."""
    import torch.nn as nn
    import torch.nn.functional as F

    d, heads = config["width"], config["heads"]
    kv_heads = config.get("kv_heads") or heads
    head_dim = config.get("head_dim") or d // heads
    eps = config.get("rms_norm_eps", 1e-5)
    theta = config.get("rope_theta", 10000.0)
    bias = bool(config.get("qkv_bias", False))
    hidden = llama_ffn_width(config)

    class LlamaRMSNorm(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(d))
            self.variance_epsilon = eps

        def forward(self, hidden_states):
            input_dtype = hidden_states.dtype
            hidden_states = hidden_states.to(torch.float32)
            variance = hidden_states.pow(2).mean(-1, keepdim=True)
            hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
            return self.weight * hidden_states.to(input_dtype)

    def rotate_half(x):
        x1 = x[..., : x.shape[-1] // 2]
        x2 = x[..., x.shape[-1] // 2:]
        return torch.cat((-x2, x1), dim=-1)

    def apply_rotary_pos_emb(q, k, cos, sin, unsqueeze_dim=1):
        cos = cos.unsqueeze(unsqueeze_dim)
        sin = sin.unsqueeze(unsqueeze_dim)
        q_embed = (q * cos) + (rotate_half(q) * sin)
        k_embed = (k * cos) + (rotate_half(k) * sin)
        return q_embed, k_embed

    def repeat_kv(hidden_states, n_rep):
        batch, num_key_value_heads, slen, hd = hidden_states.shape
        if n_rep == 1:
            return hidden_states
        hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads,
                                                               n_rep, slen, hd)
        return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, hd)

    class LlamaAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.head_dim = head_dim
            self.num_key_value_groups = heads // kv_heads
            self.scaling = head_dim ** -0.5
            self.q_proj = nn.Linear(d, heads * head_dim, bias=bias)
            self.k_proj = nn.Linear(d, kv_heads * head_dim, bias=bias)
            self.v_proj = nn.Linear(d, kv_heads * head_dim, bias=bias)
            self.o_proj = nn.Linear(heads * head_dim, d, bias=False)

        def forward(self, hidden_states, cos, sin, attention_mask):
            input_shape = hidden_states.shape[:-1]
            hidden_shape = (*input_shape, -1, self.head_dim)
            query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
            key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
            value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
            query_states, key_states = apply_rotary_pos_emb(query_states, key_states, cos, sin)
            # eager_attention_forward, dropout 0.0 (Llama's attention_dropout)
            key_states = repeat_kv(key_states, self.num_key_value_groups)
            value_states = repeat_kv(value_states, self.num_key_value_groups)
            attn_weights = torch.matmul(query_states, key_states.transpose(2, 3)) * self.scaling
            causal_mask = attention_mask[:, :, :, : key_states.shape[-2]]
            attn_weights = attn_weights + causal_mask
            attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(
                query_states.dtype)
            attn_weights = F.dropout(attn_weights, p=0.0, training=self.training)
            attn_output = torch.matmul(attn_weights, value_states)
            attn_output = attn_output.transpose(1, 2).contiguous()
            attn_output = attn_output.reshape(*input_shape, -1).contiguous()
            return self.o_proj(attn_output)

    class LlamaMLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.gate_proj = nn.Linear(d, hidden, bias=False)
            self.up_proj = nn.Linear(d, hidden, bias=False)
            self.down_proj = nn.Linear(hidden, d, bias=False)
            self.act_fn = nn.SiLU()

        def forward(self, x):
            return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))

    class LlamaDecoderLayer(nn.Module):
        """LlamaDecoderLayer.forward, its two residual halves as the chain's two units."""

        def __init__(self):
            super().__init__()
            self.self_attn = LlamaAttention()
            self.mlp = LlamaMLP()
            self.input_layernorm = LlamaRMSNorm()
            self.post_attention_layernorm = LlamaRMSNorm()

        def attention_half(self, hidden_states, cos, sin, mask):
            residual = hidden_states
            hidden_states = self.input_layernorm(hidden_states)
            hidden_states = self.self_attn(hidden_states, cos, sin, mask)
            return residual + hidden_states

        def mlp_half(self, hidden_states, cos, sin, mask):
            residual = hidden_states
            hidden_states = self.post_attention_layernorm(hidden_states)
            hidden_states = self.mlp(hidden_states)
            return residual + hidden_states

    inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.int64).float()
                                / head_dim))

    @torch.no_grad()
    def step_context():
        """What LlamaModel.forward makes before its layers: cache_position, position_ids, the
        rotary cos/sin (LlamaRotaryEmbedding.forward, attention_scaling 1) and the eager 4-D
        causal mask (_prepare_4d_causal_attention_mask_with_cache_position, no padding)."""
        b, s = config["batch"], config["seq"]
        dtype = torch.float32
        cache_position = torch.arange(0, s)
        position_ids = cache_position.unsqueeze(0)
        inv_freq_expanded = inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos = (emb.cos() * 1.0).to(dtype=dtype)
        sin = (emb.sin() * 1.0).to(dtype=dtype)
        min_dtype = torch.finfo(dtype).min
        causal_mask = torch.full((s, s), fill_value=min_dtype, dtype=dtype)
        causal_mask = torch.triu(causal_mask, diagonal=1)
        causal_mask *= torch.arange(s) > cache_position.reshape(-1, 1)
        causal_mask = causal_mask[None, None, :, :].expand(b, 1, -1, -1)
        return cos, sin, causal_mask

    layers = [LlamaDecoderLayer() for _ in range(config["depth"])]
    units = Units(part for layer in layers for part in (layer.attention_half, layer.mlp_half))
    units.context = step_context
    return units, [p for layer in layers for p in layer.parameters()]


def make_model(torch, config):
    """Blocks and input of config's shape (the values differ from ckptlab's; the bytes do not).
    Returns (units, params, input): units[u] is unit u's function (x, *units.context()) ->
    x + f(x) (Units)."""
    import torch.nn as nn
    import torch.nn.functional as F

    d = config["width"]

    class FfnBlock(nn.Module):
        """x + Linear(4d->d)(ReLU(Linear(d->4d)(LayerNorm(x)))): model.cpp's FfnBlock."""

        def __init__(self):
            super().__init__()
            self.norm = nn.LayerNorm(d)
            self.up = nn.Linear(d, 4 * d)
            self.down = nn.Linear(4 * d, d)

        def ffn(self, x):
            return self.down(torch.relu(self.up(self.norm(x))))

        def parts(self):
            return [lambda x: x + self.ffn(x)]

    class TransformerBlock(nn.Module):
        """model.cpp's TransformerBlock: x + attention(x), then x + ffn(x), the same ops."""

        def __init__(self, heads, dropout):
            super().__init__()
            self.heads, self.dropout = heads, dropout
            self.norm = nn.LayerNorm(d)
            self.qkv = nn.Linear(d, 3 * d)
            self.proj = nn.Linear(d, d)
            self.ffn = FfnBlock()

        def attention(self, x):
            b, s, _ = x.shape
            dh = d // self.heads
            qkv = self.qkv(self.norm(x)).view(b, s, 3, self.heads, dh).permute(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]
            # aten's div.Scalar, as C++'s `tensor / double` calls it: Python's `/` would wrap
            # the number in an 8-byte tensor that its backward keeps.
            scores = torch.ops.aten.div.Scalar(torch.matmul(q, k.transpose(-2, -1)),
                                               math.sqrt(dh))
            # On CPU F.dropout is ATen's _dropout_impl, which ckptlab's dropout copies (the
            # same noise tensor); p = 0 returns its input, as ckptlab's does.
            probs = F.dropout(torch.softmax(scores, -1), self.dropout, self.training)
            return self.proj(torch.matmul(probs, v).transpose(1, 2).reshape(b, s, d))

        def parts(self):
            return [lambda x: x + self.attention(x), lambda x: x + self.ffn.ffn(x)]

    torch.manual_seed(config["seed"])
    if config["block"] == "llama":
        units, params = llama_blocks(torch, config)
    else:
        if config["block"] == "ffn":
            blocks = [FfnBlock() for _ in range(config["depth"])]
        else:
            blocks = [TransformerBlock(config["heads"], config["dropout"])
                      for _ in range(config["depth"])]
        units = Units(part for block in blocks for part in block.parts())
        params = [p for block in blocks for p in block.parameters()]
    inp = torch.randn(config["batch"], config["seq"], d, requires_grad=True)
    return units, params, inp


def run_items(torch, units, items, x, reentrant=False, context=()):
    """`context`: the step's tensors every unit reads (Units.context), passed to each
    checkpoint as its arguments, so its recompute reads them as transformers' does."""
    from torch.utils.checkpoint import checkpoint
    for item in items:
        if isinstance(item, int):
            x = units[item](x, *context)
        else:
            x = checkpoint(lambda y, *c, body=item[2]: run_items(torch, units, body, y,
                                                                 reentrant, c),
                           x, *context, use_reentrant=reentrant)
    return x


def run_seed_bug(torch, units, items, x, context=()):
    """seed-bug:K as the tutorial wrote it: the closure reads the loop's variable when the
    recompute runs, so every segment's backward recomputes the last segment's blocks."""
    from torch.utils.checkpoint import checkpoint
    for begin, end, _ in items:
        x = checkpoint(lambda y, *c: run_items(torch, units, range(begin, end), y, False, c), x,
                       *context, use_reentrant=False)
    return x


def torch_peak(torch, counter, model, items, seed, seed_bug=False, reentrant=False):
    """One step of a schedule: (peak, activation) bytes above the step's start."""
    units, params, inp = model
    inp.grad = None
    for p in params:
        p.grad = None
    torch.manual_seed(seed + 1)
    counter.peak_start()
    # The model's own per-step tensors: made inside the step, and dropped by the model once
    # its forward returns (the graph and the checkpoints keep what they need).
    context = units.context() if getattr(units, "context", None) else ()
    if seed_bug:
        out = run_seed_bug(torch, units, items, inp, context)
    else:
        out = run_items(torch, units, items, inp, reentrant, context)
    del context
    activations = counter.peak_total()
    loss = out.sum()
    loss.backward()
    del loss, out
    return counter.peak_stop(), activations


# ---------------------------------------------------------------------------------------------
# ckptlab's side


def cli_args(config):
    """ckptlab-cli sweep's options for a config (one thread, one untimed-free timed step)."""
    return ["--block", config["block"], "--depth", str(config["depth"]),
            "--width", str(config["width"]), "--seq", str(config["seq"]),
            "--batch", str(config["batch"]), "--heads", str(config["heads"]),
            "--dropout", str(config["dropout"]), "--seed", str(config["seed"]),
            "--threads", "1", "--warmup", "0", "--repeats", "1"] + llama_args(config)


def llama_args(config):
    """The Llama block's options a config sets (none for the other blocks)."""
    args = []
    for key in ("kv_heads", "head_dim", "ffn_width"):
        if config.get(key):
            args += ["--" + key.replace("_", "-"), str(config[key])]
    return args + (["--qkv-bias"] if config.get("qkv_bias") else [])


def run_cli(cli, config, strategies, json_path, extra=()):
    """Runs ckptlab-cli sweep; returns (exit status, stderr). Exit 1 is also a failed gradient
    check (seed-bug's, expected), so the caller reads the file."""
    cmd = ([cli, "sweep", "--quiet"] + cli_args(config)
           + ["--strategies", ",".join(strategies), "--json", json_path] + list(extra))
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return done.returncode, done.stderr


@functools.lru_cache(maxsize=None)
def cli_kinds(cli):
    """The strategy kinds ckptlab-cli --help lists (made from core's kinds table): [(name,
    sub-block only)]: a kind whose description begins with the blocks it needs ("transformer:
    ...", "transformer, llama: ...") runs on the chains with attention only."""
    done = subprocess.run([cli, "--help"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True, check=True)
    lines = done.stdout.split("Strategies:\n", 1)[-1].split("\n\n", 1)[0].splitlines()
    return [(line.split()[0].split(":")[0],
             bool(re.match(r"\S+\s+transformer[\w ,/]*:", line))) for line in lines if line]


def load_runs(json_path):
    """{strategy: run} of a results file."""
    with open(json_path) as f:
        return {r["strategy"]: r for r in json.load(f)["runs"]}
