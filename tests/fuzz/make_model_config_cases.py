#!/usr/bin/env python3
"""Writes the config.json cases the model reader's replay checks, into the build folder.

    make_model_config_cases.py OUT_DIR PRESET.json

OUT_DIR/valid/         must load: the preset cut to its required fields, from model_type alone,
                       the nulls LlamaConfig reads as defaults, float16 and float32, dtype
                       over torch_dtype, Mistral's and Qwen2's default key/value heads, a byte
                       order mark, rope_parameters, keys in other scripts, padded to exactly
                       1 MiB, ...
OUT_DIR/reject/        must be refused with a one-line message naming the field: not an object,
                       cut off, NUL bytes, random bytes, Latin-1, UTF-16, surrogates, nesting
                       100,000 deep, duplicate keys, numbers as floats, strings, huge or
                       negative, arrays where objects belong, unknown architectures, mixture of
                       experts, sliding windows (Mistral's default one too), other
                       activations, biases, a model_type not the architecture's, a rope per
                       layer type, nulls transformers refuses, a FIFO, a loop of symbolic
                       links, 1 MiB + 1 byte, ...
OUT_DIR/big-reject/    must be refused by their size before a byte is read: 2 MB, 100 MB
OUT_DIR/missing.json   must not exist (a missing file)
OUT_DIR/a-directory.json/  a folder where a file is expected

Every file is written to a temporary name and renamed when complete; the 100 MB one is kept
when it is there already, so a second run costs little.
"""
import json
import os
import random
import shutil
import sys

MIB = 1024 * 1024


def put(path, content):
    if isinstance(content, str):
        content = content.encode("utf-8")
    tmp = path + ".tmp"
    with open(tmp, "wb") as out:
        out.write(content)
    os.replace(tmp, path)


def main():
    out_dir, preset_path = sys.argv[1], sys.argv[2]
    with open(preset_path, encoding="utf-8") as f:
        preset = json.load(f)
    valid_dir = os.path.join(out_dir, "valid")
    reject_dir = os.path.join(out_dir, "reject")
    big_dir = os.path.join(out_dir, "big-reject")
    for folder in (valid_dir, reject_dir):  # made afresh: no case of an older script stays
        shutil.rmtree(folder, ignore_errors=True)
    for folder in (valid_dir, reject_dir, big_dir):
        os.makedirs(folder, exist_ok=True)
    os.makedirs(os.path.join(out_dir, "a-directory.json"), exist_ok=True)
    if os.path.exists(os.path.join(out_dir, "missing.json")):
        os.remove(os.path.join(out_dir, "missing.json"))

    text = json.dumps(preset, indent=2) + "\n"

    def variant(**changes):
        doc = dict(preset)
        for key, value in changes.items():
            if value is DROP:
                doc.pop(key, None)
            else:
                doc[key] = value
        return json.dumps(doc, indent=2, ensure_ascii=False)

    def valid(name, content):
        put(os.path.join(valid_dir, name + ".json"), content)

    def reject(name, content):
        put(os.path.join(reject_dir, name + ".json"), content)

    # --- must load ---
    required = ["architectures", "hidden_size", "intermediate_size", "num_hidden_layers",
                "num_attention_heads", "vocab_size"]
    valid("required-only", json.dumps({k: preset[k] for k in required}))
    valid("model-type-only", variant(architectures=DROP))
    # The nulls LlamaConfig reads as its defaults (the others it refuses, below).
    valid("nulls", variant(num_key_value_heads=None, head_dim=None, rope_scaling=None,
                           torch_dtype=None, sliding_window=None, dtype=None))
    valid("float16", variant(torch_dtype="float16"))
    valid("float32", variant(torch_dtype="float32"))
    valid("dtype-key", variant(torch_dtype=DROP, dtype="bfloat16"))
    valid("dtype-over-torch-dtype", variant(torch_dtype="int8", dtype="bfloat16"))
    valid("qwen2-kv-default", variant(architectures=["Qwen2ForCausalLM"], model_type="qwen2",
                                      num_key_value_heads=DROP))
    valid("mistral-kv-default", variant(architectures=["MistralForCausalLM"],
                                        model_type="mistral", sliding_window=None,
                                        num_key_value_heads=DROP))
    valid("bom", b"\xef\xbb\xbf" + text.encode())
    valid("crlf", text.replace("\n", "\r\n"))
    valid("rope-parameters", variant(rope_theta=DROP, rope_scaling=DROP,
                                     rope_parameters={"rope_type": "llama3", "factor": 8.0,
                                                      "low_freq_factor": 1.0,
                                                      "high_freq_factor": 4.0,
                                                      "rope_theta": 500000.0}))
    valid("rope-linear", variant(rope_scaling={"type": "linear", "factor": 4}))
    valid("other-scripts", variant(**{"名前": "模型", "emoji 🦙": "✓", "escaped": "\u0001\ufffe"}))
    # 64 containers deep with the root, the most the reader takes; 65 is refused below.
    valid("nested-64-ignored", text.rstrip()[:-1] + ', "extra": ' + "[" * 63 + "]" * 63 + "}")
    valid("exactly-1-mib", text.rstrip() + " " * (MIB - len(text.rstrip().encode())))

    # --- must be refused ---
    for name, content in {
        "empty": "",
        "blank": " \n\t ",
        "array-root": "[" + text + "]",
        "string-root": '"LlamaForCausalLM"',
        "number-root": "4096",
        "null-root": "null",
        "truncated": text[: len(text) // 2],
        "trailing-garbage": text + "x",
        "two-objects": text + text,
        "single-quotes": text.replace('"', "'"),
        "comment": "// a comment\n" + text,
        "trailing-comma": text.rstrip()[:-1].rstrip() + ",\n}",
        "nan": variant(rms_norm_eps="@NAN@").replace('"@NAN@"', "NaN"),
        "infinity": variant(rope_theta="@INF@").replace('"@INF@"', "Infinity"),
    }.items():
        reject(name, content)
    nul = text.encode()
    reject("nul-byte", nul[:40] + b"\0" + nul[41:])
    reject("nul-in-string", text.replace('"silu"', '"si\\u0000lu"').encode().replace(
        b"\\u0000", b"\0"))
    rng = random.Random(7)
    reject("random-bytes", bytes(rng.randrange(256) for _ in range(4096)))
    reject("latin1", text.replace('"llama"', '"llam\u00e9"').encode("latin-1"))
    reject("utf16", text.encode("utf-16"))
    reject("surrogate", text.encode().replace(b'"silu"', b'"\xed\xa0\x80"'))
    reject("overlong", text.encode().replace(b'"silu"', b'"\xc0\xaf"'))
    reject("deep-arrays", "[" * 100000 + "]" * 100000)
    reject("deep-objects", '{"a":' * 100000 + "1" + "}" * 100000)
    reject("deep-65-ignored", text.rstrip()[:-1] + ', "extra": ' + "[" * 64 + "]" * 64 + "}")
    reject("duplicate-key", text.rstrip()[:-1] + ', "hidden_size": 8192}')
    reject("duplicate-nested", variant(rope_scaling="@R@").replace(
        '"@R@"', '{"rope_type": "llama3", "rope_type": "yarn"}'))
    reject("long-key", text.rstrip()[:-1] + ', "%s": 1, "%s": 2}' % ("k" * 500000, "k" * 500000))
    for name, value in {
        "hidden-float": "@4096.0@",
        "hidden-exponent": "@4.096e3@",
        "hidden-string": "4096",
        "hidden-negative": -4096,
        "hidden-zero": 0,
        "hidden-huge": "@100000000000000000000000000000000@",
        "hidden-overflow": "@1e400@",
        "hidden-uint64": "@18446744073709551615@",
        "hidden-true": True,
        "hidden-array": [4096],
        "hidden-object": {"value": 4096},
        "hidden-null": None,
    }.items():
        if isinstance(value, str) and value.startswith("@"):
            reject(name, variant(hidden_size="@X@").replace('"@X@"', value.strip("@")))
        else:
            reject(name, variant(hidden_size=value))
    for key in required[1:]:
        reject("missing-" + key, variant(**{key: DROP}))
    for name, changes in {
        "architectures-string": {"architectures": "LlamaForCausalLM"},
        "architectures-object": {"architectures": {"0": "LlamaForCausalLM"}},
        "architectures-empty": {"architectures": []},
        "architectures-two": {"architectures": ["LlamaForCausalLM", "MistralForCausalLM"]},
        "architectures-mixtral": {"architectures": ["MixtralForCausalLM"]},
        "architectures-gemma": {"architectures": ["Gemma2ForCausalLM"]},
        "architectures-none": {"architectures": DROP, "model_type": "gpt2"},
        "model-type-mismatch": {"model_type": "qwen2"},
        "moe-local-experts": {"architectures": ["MistralForCausalLM"], "model_type": "mistral",
                              "num_local_experts": 8, "num_experts_per_tok": 2},
        "moe-experts": {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2",
                        "num_experts": 64, "num_experts_per_tok": 8},
        "moe-string": {"num_local_experts": "8"},
        "mistral-sliding-window": {"architectures": ["MistralForCausalLM"],
                                   "model_type": "mistral", "sliding_window": 4096},
        "qwen2-use-sliding-window": {"architectures": ["Qwen2ForCausalLM"],
                                     "model_type": "qwen2", "use_sliding_window": True},
        "gelu": {"hidden_act": "gelu_pytorch_tanh"},
        "mlp-bias": {"mlp_bias": True},
        "attention-bias": {"attention_bias": True},
        "attention-bias-string": {"attention_bias": "false"},
        "kv-not-dividing": {"num_key_value_heads": 7},
        "kv-zero": {"num_key_value_heads": 0},
        "head-dim-odd": {"head_dim": 63},
        "head-dim-huge": {"head_dim": 4096},
        "heads-not-dividing": {"head_dim": DROP, "num_attention_heads": 30},
        "layers-too-many": {"num_hidden_layers": 513},
        "vocab-too-big": {"vocab_size": 2147483648},
        "rms-norm-eps-zero": {"rms_norm_eps": 0},
        "rope-theta-string": {"rope_theta": "500000"},
        "rope-scaling-array": {"rope_scaling": [8.0]},
        "rope-scaling-string": {"rope_scaling": "llama3"},
        "rope-scaling-unknown": {"rope_scaling": {"rope_type": "mrope", "factor": 2}},
        "rope-scaling-no-type": {"rope_scaling": {"factor": 8.0}},
        "torch-dtype-int8": {"torch_dtype": "int8"},
        "torch-dtype-number": {"torch_dtype": 16},
        "tie-string": {"tie_word_embeddings": "true"},
        # What transformers' classes refuse or build into another model.
        "mistral-window-left-out": {"architectures": ["MistralForCausalLM"],
                                    "model_type": "mistral", "sliding_window": DROP},
        "mistral-kv-null": {"architectures": ["MistralForCausalLM"], "model_type": "mistral",
                            "sliding_window": None, "num_key_value_heads": None},
        "model-type-gemma": {"model_type": "gemma"},
        "model-type-qwen2-moe": {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2_moe"},
        "rope-per-layer-type": {"rope_scaling": DROP, "rope_parameters": {
            "full_attention": {"rope_type": "default", "rope_theta": 1e6}}},
        "rope-factor-negative": {"rope_scaling": {"rope_type": "linear", "factor": -2.0}},
        "rope-factor-string": {"rope_scaling": {"rope_type": "linear", "factor": "8"}},
        "rope-llama3-no-freq": {"rope_scaling": {"rope_type": "llama3", "factor": 8.0}},
        "rope-type-null": {"rope_scaling": {"rope_type": None, "factor": 8.0}},
        "rope-theta-null": {"rope_theta": None},
        "rms-norm-eps-null": {"rms_norm_eps": None},
        "rms-norm-eps-integer": {"rms_norm_eps": 1},
        "tie-null": {"tie_word_embeddings": None},
        "attention-bias-null": {"attention_bias": None},
        "hidden-act-null": {"hidden_act": None},
        "max-positions-float": {"max_position_embeddings": 131072.0},
        "layer-types-short": {"layer_types": ["full_attention"]},
        "layer-types-sliding": {"layer_types": ["sliding_attention"] * 32},
        "qwen2-head-dim-null": {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2",
                                "head_dim": None},
        "dtype-int8-over-torch-dtype": {"dtype": "int8"},
    }.items():
        reject(name, variant(**changes))
    # Not a regular file: refused before it is opened (a FIFO would block the reader).
    fifo = os.path.join(reject_dir, "fifo.json")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    loop = os.path.join(reject_dir, "symlink-loop.json")
    if not os.path.islink(loop):
        os.symlink(loop, loop)
    reject("one-byte-over-1-mib", text.rstrip() + " " * (MIB + 1 - len(text.rstrip().encode())))

    # --- refused by their size before reading ---
    put(os.path.join(big_dir, "2-mb.json"), text.encode() + b" " * (2 * 1000 * 1000))
    hundred = os.path.join(big_dir, "100-mb.json")
    if not os.path.isfile(hundred) or os.path.getsize(hundred) != 100 * 1000 * 1000:
        tmp = hundred + ".tmp"
        with open(tmp, "wb") as out:
            out.write(b"[" * 1000)
            chunk = b"{\"hidden_size\": 4096}, " * 40000
            while out.tell() + len(chunk) < 100 * 1000 * 1000:
                out.write(chunk)
            out.write(b" " * (100 * 1000 * 1000 - out.tell()))
        os.replace(tmp, hundred)


class _Drop:
    pass


DROP = _Drop()

if __name__ == "__main__":
    main()
