#!/usr/bin/env bash
# ckptlab-cli plan --capacity on small Llama models (a config.json through --model): the table
# has every default strategy, the model line counts the parameters, --json holds the same answer
# in bytes, a capacity far too small says it does not fit and names what would, a model whose
# weights, gradients and optimizer state alone pass the capacity says so, --costs-from scales
# the times by a results file's none step and refuses another shape, and bad values exit 2
# naming the option.
set -eu
cli=$1
out=$2
rm -rf "$out" && mkdir -p "$out"

# A tiny LlamaForCausalLM: 4 layers of width 64, 4 heads, 2 kv heads, MLP 128, vocabulary 512,
# bfloat16 (so mixed-bf16, with memory-efficient attention, as --model takes such a file).
mkdir -p "$out/tiny"
cat > "$out/tiny/config.json" <<'JSON'
{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64,
 "intermediate_size": 128, "num_hidden_layers": 4, "num_attention_heads": 4,
 "num_key_value_heads": 2, "vocab_size": 512, "rms_norm_eps": 1e-05, "rope_theta": 10000.0,
 "tie_word_embeddings": false, "torch_dtype": "bfloat16"}
JSON
tiny=(--model "$out/tiny/config.json" --optimizer adam --threads 1)

fail() { echo "FAIL: $*"; exit 1; }

# 1. It fits: every default strategy in the table, each fitting; the fastest schedule named.
"$cli" plan "${tiny[@]}" --seq 256 --batch 1 --capacity 24GB --json "$out/fits.json" \
    > "$out/fits.txt" 2> "$out/fits.err" || fail "plan --capacity 24GB exited $?"
cat "$out/fits.txt"
grep -Eq "^\[ *[0-9.]+ s\] measuring shape 1 of [0-9]+: B=1 S=[0-9]+ V=[0-9]+.* \(memory( only| and time)\)$" "$out/fits.err" ||
    fail "no progress line per measured shape"
python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
text = open(f"{out}/fits.txt").read()
lines = text.splitlines()
assert re.search(r"^fit checked on \d+ shapes? it did not use: largest difference 0 B$", text,
                 re.M), "the fit's self-check line"
# 64*512 embedding + 4 layers of (q 64x64, k and v 64x32, o 64x64, gate/up/down 3x64x128,
# 2 norms) + the final norm + the untied head 64x512.
layer = 64 * 64 + 2 * 64 * 32 + 64 * 64 + 3 * 64 * 128 + 2 * 64
params = 64 * 512 + 4 * layer + 64 + 64 * 512
assert re.search(r"^model: \S*tiny/config\.json, " + f"{params:,}" +
                 r" parameters, 4 layers, S=256, B=1, mixed-bf16, optimizer adam, "
                 r"memory-efficient attention$", text, re.M), params
# Every size of this model is below a GB: the table says MB, the capacity GB and GiB.
assert "sizes in MB (10^6 bytes)" in text and "capacity: 24.00 GB (22.35 GiB)" in text
assert "predicted on this machine (CPU, 1 thread)" in text
rows = {l.split()[0]: l.split() for l in lines
        if re.match(r"^(none|full|attn|ffn|every:2|sqrt) ", l)}
assert sorted(rows) == sorted(["none", "full", "attn", "ffn", "every:2", "sqrt"]), rows
for name, row in rows.items():
    assert row[10] == "yes", (name, row)
assert re.search(r"^fastest schedule that fits 24\.00 GB: optimal:[0-9.]+$", text, re.M), text

plan = json.load(open(f"{out}/fits.json"))
assert plan["parameters"] == params and plan["capacity_bytes"] == 24 * 10**9
# Mixed-bf16 with Adam: fp32 weights, fp32 gradients and two fp32 moments per parameter.
assert plan["state_bytes"] == 16 * params, (plan["state_bytes"], 16 * params)
assert plan["check_residual_bytes"] == 0
by = {s["strategy"]: s for s in plan["strategies"]}
assert list(by) == ["none", "full", "attn", "ffn", "every:2", "sqrt"], list(by)
for name, s in by.items():
    assert s["split"]["weights"] == 4 * params, (name, s["split"])
    assert s["split"]["optimizer_state"] == 8 * params, (name, s["split"])
    assert s["allocated_bytes"] <= s["reserved_bytes"], (name, s)
    assert s["margin_bytes"] == 24 * 10**9 - s["reserved_bytes"], name
    assert s["largest_batch"] >= 1 and s["longest_seq"] >= 256, (name, s)
    # The table rounds the JSON's bytes to MB.
    assert rows[name][1] == f"{s['allocated_bytes'] / 1e6:.2f}", (name, rows[name])
    assert rows[name][2] == f"{s['reserved_bytes'] / 1e6:.2f}", (name, rows[name])
    # Tokens per second at the largest batch are that batch's tokens over its step.
    tokens = s["largest_batch"] * 256 / (s["step_ms_at_largest_batch"] / 1000)
    assert s["step_ms"] > 0 and abs(s["tokens_per_s"] - tokens) <= 1e-9 * tokens, (name, s)
# Checkpointing keeps less than keeping everything.
assert by["full"]["peak_bytes"] < by["none"]["peak_bytes"]
assert plan["fastest"]["fits"] and plan["fastest"]["schedule"], plan["fastest"]
print("fits: ok")
PY

# 2. Far too small: a long batch of long sequences on the smallest capacity. (Its times are
# measured up to the planned length, so a longer one costs minutes of bfloat16 matmuls.)
"$cli" plan "${tiny[@]}" --seq 1024 --batch 256 --capacity 1GB -q --json "$out/small.json" \
    > "$out/small.txt" || fail "plan --capacity 1GB exited $?"
cat "$out/small.txt"
grep -q "^nothing fits 1.00 GB (0.93 GiB) at B=256 S=1024$" "$out/small.txt" ||
    fail "no 'nothing fits' line"
grep -Eq "^would fit: a [0-9]+GB device \(.*\), where the least-memory schedule reserves [0-9.]+ GB; try --capacity [0-9]+GB$" \
    "$out/small.txt" || fail "no 'would fit' line naming a preset"
python3 - "$out" <<'PY'
import json, sys
plan = json.load(open(f"{sys.argv[1]}/small.json"))
assert not any(s["fits"] for s in plan["strategies"]) and plan["fastest"] is None
least = min(s["reserved_bytes"] for s in plan["strategies"])
presets = [24, 40, 48, 80, 94, 141]
assert plan["would_fit"] in [f"{p}GB" for p in presets], plan["would_fit"]
print("too small: ok, would fit", plan["would_fit"], "least listed", least)
PY

# 3. Weights, gradients and Adam's moments alone above the capacity: 128 layers of width 256,
# more units than the optimal planner takes, so only the listed strategies are planned. In
# float32 (16 bytes a parameter with Adam, as in mixed-bf16): bfloat16 matmuls on a CPU
# without AVX-512 would take a minute and a half to time.
"$cli" plan --block llama --width 256 --depth 128 --heads 4 --vocab 512 \
    --attention memory-efficient --precision float32 --optimizer adam --threads 1 \
    --seq 128 --batch 1 --capacity 1GB -q --strategies none,full > "$out/state.txt" ||
    fail "plan of the 128-layer model exited $?"
cat "$out/state.txt"
grep -Eq "^does not fit: weights, gradients and optimizer state alone are [0-9.]+ GB, above the 1.00 GB capacity" \
    "$out/state.txt" || fail "no plain 'does not fit' line for the state"
grep -q "^note: the optimal planner takes at most 128 units, this chain has 256" "$out/state.txt" ||
    fail "no note that the planner was not run"

# 4. --costs-from: a tiny sweep of the same shape times none here; the plan scales by it.
"$cli" sweep "${tiny[@]}" --depth 2 --seq 64 --batch 1 --strategies none --warmup 0 \
    --repeats 1 -q --json "$out/same.json" > /dev/null
"$cli" plan "${tiny[@]}" --seq 256 --batch 1 --capacity 24GB -q --costs-from "$out/same.json" \
    > "$out/scaled.txt" || fail "plan --costs-from exited $?"
grep -Eq "^times scaled to .*: its none step at B=1 S=64 depth 2 measured [0-9.]+ ms, predicted here [0-9.]+ ms: ratio [0-9.e+-]+$" \
    "$out/scaled.txt" || fail "no ratio line"
grep -q "(scaled from its measured none step)" "$out/scaled.txt" || fail "times not labelled"

# 5. Refusals: exit 2, one line naming the option.
expect_refusal() {  # NAME-IN-MESSAGE args...
    local name=$1 code=0
    shift
    "$cli" plan "$@" > "$out/refused.txt" 2>&1 || code=$?
    [[ $code == 2 ]] || fail "exit $code, not 2, for: $* ($(cat "$out/refused.txt"))"
    grep -q -- "$name" "$out/refused.txt" || fail "'$name' not named for: $* ($(cat "$out/refused.txt"))"
}
for bad in 80 80Gb "8 0 G B" 80KB 0GB 100001GB ""; do
    expect_refusal --capacity "${tiny[@]}" --capacity "$bad"
done
expect_refusal --capacity "${tiny[@]}" --costs-from "$out/same.json"
expect_refusal --capacity "${tiny[@]}" --capacity 24GB --budgets 10
expect_refusal --capacity "${tiny[@]}" --capacity 24GB --brute-force
expect_refusal --capacity "${tiny[@]}" --strategies none,full
expect_refusal --csv "${tiny[@]}" --capacity 24GB --csv "$out/x.csv"
expect_refusal --costs-from "${tiny[@]}" --capacity 24GB --costs-from "$out/missing.json"
expect_refusal "its none run's width is 64, this plan's 128" "${tiny[@]}" --width 128 --capacity 24GB \
    --costs-from "$out/same.json"
expect_refusal "every:N needs N between 1 and 4" "${tiny[@]}" --capacity 24GB --strategies none,every:9
echo "cli plan --capacity ok"
