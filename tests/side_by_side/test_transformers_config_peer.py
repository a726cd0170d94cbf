#!/usr/bin/env python3
"""ckptlab's config.json reader against transformers' own configuration classes.

For each config of a corpus (the presets in resources/models and hostile variants: fields left
out, null, both dtypes, the rope_parameters forms, a model_type that is not the
architecture's...), `ckptlab-cli models --show FILE --json` says what the lab reads, and
transformers' LlamaConfig, MistralConfig or Qwen2Config (the pinned version,
packaging/torch-python/requirements.txt) what transformers builds:

- a config the lab accepts is built by transformers as the architecture's class, and every
  field is the same: the shape, the key/value heads and head width with the class's defaults,
  the positions, the norm's epsilon, the rotary base, type and factor, the ties, the q/k/v
  biases, the dtype, no sliding window in use; with torch importable, the model built on the
  meta device has the parameter count the lab works out;
- a config the lab refuses (exit 2, one line naming the field) is one transformers refuses
  too, or builds into another model than the lab's block (checked on transformers' config), or
  one of the few the lab refuses more strictly (said so in the corpus).

Exit 77 (skipped) without transformers or with another version than the pinned one, unless it
is required: CKPTLAB_REQUIRE_TRANSFORMERS=1, or a Python whose venv ckptlab.sh made from the
requirements with transformers in them (its .ckptlab-complete marker).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import warnings

SKIP = 77


def pinned_version(requirements):
    with open(requirements, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^transformers==([0-9][0-9.]*)\s*$", line.strip())
            if m:
                return m.group(1)
    raise SystemExit(f"no transformers==X pin in {requirements}")


def transformers_required():
    if os.environ.get("CKPTLAB_REQUIRE_TRANSFORMERS") == "1":
        return True
    marker = os.path.join(sys.prefix, ".ckptlab-complete")
    try:
        with open(marker, encoding="utf-8") as f:
            return "transformers==" in f.read()
    except OSError:
        return False


# A small model of each architecture: the shape only; each case adds or removes fields.
SHAPES = {
    "LlamaForCausalLM": ("llama", {"hidden_size": 256, "intermediate_size": 512,
                                   "num_hidden_layers": 2, "num_attention_heads": 8,
                                   "vocab_size": 1000}),
    "MistralForCausalLM": ("mistral", {"hidden_size": 2048, "intermediate_size": 512,
                                       "num_hidden_layers": 2, "num_attention_heads": 32,
                                       "vocab_size": 1000, "sliding_window": None}),
    "Qwen2ForCausalLM": ("qwen2", {"hidden_size": 2048, "intermediate_size": 512,
                                   "num_hidden_layers": 2, "num_attention_heads": 32,
                                   "vocab_size": 1000}),
}
DELETE = object()  # a field to leave out


def small(architecture, **changes):
    model_type, shape = SHAPES[architecture]
    config = {"architectures": [architecture], "model_type": model_type, **shape}
    for key, value in changes.items():
        if value is DELETE:
            config.pop(key, None)
        else:
            config[key] = value
    return config


L, M, Q = "LlamaForCausalLM", "MistralForCausalLM", "Qwen2ForCausalLM"
PER_TYPE = {"full_attention": {"rope_type": "default", "rope_theta": 1e6}}
ROPE_1E6 = {"rope_type": "default", "rope_theta": 1e6}

# (name, config, expectation). Expectations: "accept"; ("differs", field, check): transformers
# builds it, and check(transformers' config) is true where it differs from the lab's block;
# ("refused", field): transformers refuses it too; ("stricter", field, why): transformers
# builds the lab's model or fails later, and the lab refuses up front.
CASES = [
    ("llama-shape-only", small(L), "accept"),
    ("llama-kv-null", small(L, num_key_value_heads=None), "accept"),
    ("mistral-kv-default-8", small(M), "accept"),
    ("qwen2-kv-default-32", small(Q), "accept"),
    ("qwen2-kv-null-is-heads", small(Q, hidden_size=1792, num_attention_heads=28,
                                     num_key_value_heads=None), "accept"),
    ("both-dtypes", small(L, dtype="bfloat16", torch_dtype="float32"), "accept"),
    ("dtype-null", small(L, dtype=None, torch_dtype="float32"), "accept"),
    ("dtype-only-float16", small(M, dtype="float16"), "accept"),
    ("rope-parameters", small(L, rope_parameters=ROPE_1E6), "accept"),
    ("rope-parameters-and-top-theta", small(Q, rope_parameters=ROPE_1E6, rope_theta=5e5),
     "accept"),
    ("rope-parameters-without-theta", small(L, rope_parameters={"rope_type": "default"},
                                            rope_theta=5e5), "accept"),
    ("rope-scaling-replaces-parameters",
     small(L, rope_scaling={"rope_type": "linear", "factor": 2.0}, rope_parameters=ROPE_1E6,
           rope_theta=5e5), "accept"),
    ("rope-scaling-empty", small(L, rope_scaling={},
                                 rope_parameters={"rope_type": "dynamic", "factor": 2.0,
                                                  "rope_theta": 2e5}), "accept"),
    ("rope-old-type-key", small(Q, rope_scaling={"type": "linear", "factor": 4}), "accept"),
    ("mistral-biases-ignored", small(M, attention_bias=True, mlp_bias=True), "accept"),
    ("qwen2-attention-bias-false", small(Q, attention_bias=False), "accept"),
    ("qwen2-sliding-no-layer-reached", small(Q, use_sliding_window=True, sliding_window=64),
     "accept"),
    ("qwen2-sliding-without-window", small(Q, use_sliding_window=True, sliding_window=None,
                                           max_window_layers=0), "accept"),
    ("qwen2-layer-types-full", small(Q, layer_types=["full_attention"] * 2), "accept"),
    ("swish", small(L, hidden_act="swish"), "accept"),
    ("mistral-head-dim-not-implied", small(M, hidden_size=2080, head_dim=64,
                                           num_key_value_heads=8), "accept"),
    ("no-model-type", small(L, model_type=DELETE), "accept"),
    ("no-architectures", small(Q, architectures=DELETE), "accept"),
    ("tied", small(Q, tie_word_embeddings=True, max_position_embeddings=4096), "accept"),

    ("mistral-window-left-out", small(M, sliding_window=DELETE),
     ("differs", "sliding_window", lambda c: c.sliding_window == 4096)),
    ("mistral-window-4096", small(M, sliding_window=4096),
     ("differs", "sliding_window", lambda c: c.sliding_window == 4096)),
    ("gemma-model-type", small(L, model_type="gemma"),
     ("differs", "model_type", lambda c: type(c).__name__ != "LlamaConfig")),
    ("qwen2-moe-model-type", small(Q, model_type="qwen2_moe"),
     ("differs", "model_type", lambda c: type(c).__name__ != "Qwen2Config")),
    ("mistral-kv-default-does-not-divide", small(M, hidden_size=256, num_attention_heads=4),
     ("differs", "num_key_value_heads", lambda c: c.num_key_value_heads == 8)),
    ("qwen2-kv-default-does-not-divide", small(Q, hidden_size=1792, num_attention_heads=28),
     ("differs", "num_key_value_heads", lambda c: c.num_key_value_heads == 32)),
    ("mistral-kv-null", small(M, num_key_value_heads=None), ("refused", "num_key_value_heads")),
    ("llama-rope-per-layer-type", small(L, rope_parameters=PER_TYPE),
     ("differs", "rope_parameters.full_attention",
      lambda c: c.rope_parameters.get("rope_theta") == 10000.0)),
    ("qwen2-rope-per-layer-type", small(Q, rope_parameters=PER_TYPE),
     ("differs", "rope_parameters.full_attention", lambda c: "rope_type" not in c.rope_parameters)),
    ("rope-factor-negative", small(L, rope_scaling={"rope_type": "linear", "factor": -2.0}),
     ("stricter", "rope_scaling.factor", "transformers only warns of a factor below 1")),
    ("rope-factor-string", small(L, rope_scaling={"rope_type": "linear", "factor": "8"}),
     ("stricter", "rope_scaling.factor", "transformers fails when it builds the rotary embedding")),
    ("rope-theta-null", small(L, rope_theta=None),
     ("differs", "rope_theta", lambda c: c.rope_parameters["rope_theta"] is None)),
    ("llama3-without-freq-factors", small(L, rope_scaling={"rope_type": "llama3", "factor": 8.0}),
     ("refused", "rope_scaling.low_freq_factor")),
    ("rms-norm-eps-integer", small(L, rms_norm_eps=1), ("refused", "rms_norm_eps")),
    ("llama-attention-bias", small(L, attention_bias=True),
     ("differs", "attention_bias", lambda c: c.attention_bias is True)),
    ("llama-mlp-bias", small(L, mlp_bias=True), ("differs", "mlp_bias", lambda c: c.mlp_bias)),
    ("gelu", small(M, hidden_act="gelu"), ("differs", "hidden_act", lambda c: c.hidden_act == "gelu")),
    ("qwen2-sliding-layers", small(Q, use_sliding_window=True, sliding_window=64,
                                   max_window_layers=1),
     ("differs", "use_sliding_window", lambda c: "sliding_attention" in c.layer_types)),
    ("qwen2-layer-types-sliding", small(Q, layer_types=["full_attention", "sliding_attention"]),
     ("differs", "layer_types[1]", lambda c: "sliding_attention" in c.layer_types)),
    ("llama-heads-do-not-divide", small(L, hidden_size=260, head_dim=32),
     ("refused", "num_attention_heads")),
    ("layer-types-short", small(L, layer_types=["full_attention"]), ("refused", "layer_types")),
    ("tie-string", small(L, tie_word_embeddings="yes"), ("refused", "tie_word_embeddings")),
    ("qwen2-head-dim-null", small(Q, head_dim=None),
     ("differs", "head_dim", lambda c: c.head_dim is None)),
    ("experts-on-llama", small(L, num_local_experts=8),
     ("stricter", "num_local_experts", "LlamaConfig ignores it: a mislabelled mixture of experts")),
]


def show(cli, path):
    run = subprocess.run([cli, "models", "--show", path, "--json"], capture_output=True,
                         text=True, timeout=60)
    return run.returncode, run.stdout, run.stderr


def transformers_config(config):
    """transformers' config of the file as AutoConfig picks its class (by model_type, else the
    architecture's), or the exception it raises."""
    import transformers
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING
    model_type = config.get("model_type")
    if model_type is None:
        model_type = {L: "llama", M: "mistral", Q: "qwen2"}[config["architectures"][0]]
    try:
        cls = CONFIG_MAPPING[model_type]
        body = {k: v for k, v in config.items() if k != "model_type"}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return cls.from_dict(json.loads(json.dumps(body))), None
    except Exception as e:  # what transformers refuses, whatever the class
        return None, f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"


def dtype_name(dtype):
    return None if dtype is None else str(dtype).replace("torch.", "")


def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-12)
    return a == b


def compare(name, config, lab, tf, torch):
    """The differences between the lab's fields and transformers' config, as messages."""
    problems = []
    architecture = lab["architecture"]
    expected_class = {L: "LlamaConfig", M: "MistralConfig", Q: "Qwen2Config"}[architecture]
    if type(tf).__name__ != expected_class:
        return [f"transformers builds {type(tf).__name__}, the lab {architecture}"]
    rope = tf.rope_parameters or {}
    head_dim = getattr(tf, "head_dim", None) or tf.hidden_size // tf.num_attention_heads
    qkv_bias = {L: getattr(tf, "attention_bias", False), M: False, Q: True}[architecture]
    rope_type = rope.get("rope_type", "default")
    want = {
        "hidden_size": tf.hidden_size,
        "intermediate_size": tf.intermediate_size,
        "num_hidden_layers": tf.num_hidden_layers,
        "num_attention_heads": tf.num_attention_heads,
        "num_key_value_heads": tf.num_key_value_heads,
        "head_dim": head_dim,
        "vocab_size": tf.vocab_size,
        "max_position_embeddings": tf.max_position_embeddings,
        "rms_norm_eps": tf.rms_norm_eps,
        "rope_theta": rope.get("rope_theta"),
        "rope_type": rope_type,
        "tie_word_embeddings": tf.tie_word_embeddings,
        "qkv_bias": qkv_bias,
        "dtype": dtype_name(tf.dtype),
        "sliding_window": None,
    }
    if rope_type != "default" and rope.get("factor") is not None:
        want["rope_factor"] = float(rope["factor"])
    for key, value in want.items():
        if not same(lab.get(key), value):
            problems.append(f"{key}: the lab reads {lab.get(key)!r}, transformers {value!r}")
    if architecture == L and (tf.mlp_bias or tf.attention_bias):
        problems.append("transformers builds biases the lab's Llama block does not have")
    if tf.hidden_act not in ("silu", "swish"):
        problems.append(f"transformers' activation is {tf.hidden_act}")
    if architecture == M and tf.sliding_window is not None:
        problems.append(f"transformers slides a window of {tf.sliding_window}")
    if any(t != "full_attention" for t in (getattr(tf, "layer_types", None) or [])):
        problems.append(f"transformers' layer_types: {tf.layer_types}")
    if torch is not None:
        import transformers
        with torch.device("meta"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = getattr(transformers, architecture)(tf)
        count = sum(p.numel() for p in model.parameters())
        if count != lab["parameters"]:
            problems.append(f"parameters: the lab counts {lab['parameters']}, "
                            f"transformers' model has {count}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--models", required=True, help="resources/models")
    parser.add_argument("--requirements", required=True,
                        help="packaging/torch-python/requirements.txt (the pin)")
    args = parser.parse_args()
    pin = pinned_version(args.requirements)
    required = transformers_required()
    try:
        import transformers
    except ImportError:
        print(f"transformers is not installed in {sys.executable}: "
              + ("fails (required)" if required else "skipped"))
        return 1 if required else SKIP
    if transformers.__version__ != pin:
        print(f"transformers {transformers.__version__} in {sys.executable}, pinned {pin}: "
              + ("fails (required)" if required else "skipped"))
        return 1 if required else SKIP
    transformers.logging.set_verbosity_error()
    try:
        import torch
    except ImportError:
        torch = None
        print("no torch: the fields are compared, not the parameter counts of built models")

    cases = []
    for preset in sorted(os.listdir(args.models)):
        if preset.endswith(".json"):
            with open(os.path.join(args.models, preset), encoding="utf-8") as f:
                cases.append((preset[:-5], json.load(f), "accept"))
    cases += CASES

    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        for name, config, expectation in cases:
            path = os.path.join(scratch, name + ".json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(config, f)
            code, out, err = show(args.cli, path)
            tf, tf_error = transformers_config(config)
            if expectation == "accept":
                if code != 0:
                    failures.append(f"{name}: the lab refuses it (exit {code}): {err.strip()}")
                elif tf is None:
                    failures.append(f"{name}: the lab accepts what transformers refuses: {tf_error}")
                else:
                    problems = compare(name, config, json.loads(out), tf, torch)
                    failures += [f"{name}: {p}" for p in problems]
                continue
            kind, field = expectation[0], expectation[1]
            lines = err.strip().splitlines()
            if code != 2 or len(lines) != 1 or f": {field}: " not in lines[0]:
                failures.append(f"{name}: wanted exit 2 and one line naming {field}, got exit "
                                f"{code}: {err.strip()}")
                continue
            if kind == "refused" and tf is not None:
                failures.append(f"{name}: transformers accepts it (the corpus says it refuses)")
            if kind == "differs":
                if tf is None:
                    failures.append(f"{name}: transformers refuses it ({tf_error}); the corpus "
                                    "says it builds another model")
                elif not expectation[2](tf):
                    failures.append(f"{name}: transformers builds what the lab would: the "
                                    f"refusal of {field} is not needed")
            status = "refused by transformers too" if tf is None else f"{kind}"
            print(f"{name}: refused ({status}): {lines[0]}")
    print(f"{len(cases)} configs against transformers {transformers.__version__}"
          + ("" if torch is None else f" and torch {torch.__version__} (meta-device models)"))
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
