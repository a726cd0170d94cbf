#!/usr/bin/env bash
# ckptlab-cli models and --model: the presets listed with their published shapes and parameter
# counts; bad --model inputs exit 2 with one line "ckptlab-cli: --model: ..." naming the field;
# the options typed with --model override the model's values (a one-layer run of SmolLM2-135M
# with a small vocabulary and fp32, which takes a second).
set -u
cli=$1
out=$2
models=$3  # resources/models
rm -rf "$out" && mkdir -p "$out"
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# `models`: one row per preset with hidden, intermediate, layers, heads, kv heads, vocab, tied
# and the parameter count (worked out by hand, resources/models/README.md).
listing=$("$cli" models 2>"$out/models.err")
code=$?
[[ $code -eq 0 ]] || fail "models exited $code: $(cat "$out/models.err")"
[[ -s "$out/models.err" ]] && fail "models wrote to stderr: $(cat "$out/models.err")"
while read -r preset row; do
    line=$(grep -E "^$preset " <<<"$listing")
    [[ -n "$line" ]] || { fail "models does not list $preset: $listing"; continue; }
    got=$(awk '{print $3, $4, $5, $6, $7, $8, $9, $10}' <<<"$line")
    [[ "$got" == "$row" ]] || fail "models: $preset is '$got', wanted '$row'"
done <<'EOF'
smollm2-135m 576 1536 30 9 3 49152 yes 134,515,008
llama-3.2-1b 2048 8192 16 32 8 128256 yes 1,235,814,400
llama-3.1-8b 4096 14336 32 32 8 128256 no 8,030,261,248
qwen2.5-7b 3584 18944 28 28 4 152064 no 7,615,616,512
mistral-7b-v0.3 4096 14336 32 32 8 32768 no 7,248,023,552
llama-3.1-70b 8192 28672 80 64 8 128256 no 70,553,706,496
EOF
[[ $(grep -cE '^(smollm2|llama|qwen|mistral)' <<<"$listing") -eq 6 ]] || fail "models lists other than 6 presets: $listing"
# A presets folder from the environment; a wrong one is reported, not silently replaced.
mkdir -p "$out/presets"
cp "$models/smollm2-135m.json" "$out/presets/tiny.json"
CKPTLAB_MODELS_DIR="$out/presets" "$cli" models | grep -qE '^tiny +LlamaForCausalLM' ||
    fail "models does not read CKPTLAB_MODELS_DIR"
# A broken presets folder is bad input (exit 2), named by the variable's value, not "set it".
err=$(CKPTLAB_MODELS_DIR="$out/absent" "$cli" models 2>&1 >/dev/null)
[[ $? -eq 2 && "$err" == "ckptlab-cli: no model presets found: CKPTLAB_MODELS_DIR is \"$out/absent\": no such folder" ]] ||
    fail "models with a missing folder: $err"
mkdir -p "$out/empty"
err=$(CKPTLAB_MODELS_DIR="$out/empty" "$cli" models 2>&1 >/dev/null)
[[ $? -eq 2 && "$err" == *"CKPTLAB_MODELS_DIR is \"$out/empty\": the folder holds no presets"* && "$err" != *"set CKPTLAB"* ]] ||
    fail "models with an empty folder: $err"
mkdir -p "$out/broken"
cp "$models/smollm2-135m.json" "$out/broken/tiny.json"
printf '{"architectures": ["LlamaForCausalLM"]}' >"$out/broken/half.json"
err=$(CKPTLAB_MODELS_DIR="$out/broken" "$cli" models 2>&1 >/dev/null)
[[ $? -eq 2 && "$err" == *"preset half: hidden_size: missing"* ]] || fail "models with a broken preset: $err"

# --show: every field as read, the class's defaults filled in (Mistral: 8 key/value heads).
shown=$("$cli" models --show mistral-7b-v0.3 --json 2>"$out/show.err")
[[ $? -eq 0 ]] || fail "models --show failed: $(cat "$out/show.err")"
grep -qF '"num_key_value_heads": 8,' <<<"$shown" && grep -qF '"rope_theta": 1000000.0,' <<<"$shown" &&
    grep -qF '"parameters": 7248023552,' <<<"$shown" || fail "models --show printed: $shown"
printf '{"architectures": ["MistralForCausalLM"], "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 2, "num_attention_heads": 32, "vocab_size": 32000, "sliding_window": null}' >"$out/nokv.json"
"$cli" models --show "$out/nokv.json" | grep -qx 'num_key_value_heads: 8' ||
    fail "models --show does not fill MistralConfig's 8 key/value heads"

expect() {  # expect PATTERN -- ARGS...: exit 2, one line on stderr with PATTERN
    local pattern=$1
    shift 2
    local err got lines
    err=$("$cli" "$@" 2>&1 >/dev/null)
    got=$?
    lines=$(printf '%s' "$err" | grep -c '')
    if [[ $got -ne 2 ]] || ! grep -qF -- "$pattern" <<<"$err" || [[ $lines -ne 1 ]]; then
        fail "ckptlab-cli $* -> exit $got, stderr: $err (wanted exit 2 and '$pattern')"
    fi
}

printf '{"architectures": ["MistralForCausalLM"], "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 32000, "num_local_experts": 8, "num_experts_per_tok": 2}' >"$out/mixtral.json"
printf '{"architectures": ["LlamaForCausalLM"], "hidden_size": 4096.0}' >"$out/float.json"
printf '{"architectures": ["GPT2LMHeadModel"]}' >"$out/gpt2.json"
printf '[{"hidden_size": 64}]' >"$out/array.json"
printf '{"hidden_size": 64, "hidden_size": 128}' >"$out/twice.json"
head -c 2000000 /dev/zero | tr '\0' ' ' >"$out/big.json"

expect 'ckptlab-cli: --model: "llama-9" is neither a preset nor a file; the presets are llama-3.1-70b, llama-3.1-8b, llama-3.2-1b, mistral-7b-v0.3, qwen2.5-7b or smollm2-135m' -- run --model llama-9
expect "ckptlab-cli: --model: $out/mixtral.json: num_local_experts: 8: a mixture of experts is not modelled" -- sweep --model "$out/mixtral.json"
expect "--model: $out/float.json: hidden_size: must be a whole number from 8 to 16384 (got 4096.0)" -- plan --model "$out/float.json"
expect "--model: $out/gpt2.json: architectures[0]: \"GPT2LMHeadModel\" is not modelled; the lab models LlamaForCausalLM, MistralForCausalLM or Qwen2ForCausalLM" -- pareto --model "$out/gpt2.json"
expect "--model: $out/array.json: the text must be one JSON object" -- scaling --vary depth --values 1,2 --model "$out/array.json"
expect "--model: $out/twice.json: hidden_size: duplicate key" -- run --model "$out/twice.json"
printf '{"rope_scaling": {"factor": 8.0, "factor": 2.0}}' >"$out/twice_inner.json"
expect "--model: $out/twice_inner.json: rope_scaling.factor: duplicate key" -- run --model "$out/twice_inner.json"
expect "--show: $out/twice_inner.json: rope_scaling.factor: duplicate key" -- models --show "$out/twice_inner.json"
# Not a regular file: refused at once (a FIFO would block the read forever), the cause named.
mkfifo "$out/fifo.json"
err=$(timeout 20 "$cli" plan --model "$out/fifo.json" --capacity 80GB 2>&1 >/dev/null)
code=$?
[[ $code -eq 2 && "$err" == "ckptlab-cli: --model: $out/fifo.json: a FIFO (named pipe), not a regular file; --model reads a config.json file" ]] ||
    fail "plan --model on a FIFO -> exit $code: $err"
ln -s "$out/loop.json" "$out/loop.json"
expect "--model: $out/loop.json: too many levels of symbolic links" -- run --model "$out/loop.json"
expect "--model: $out/twice.json/x: a part of the path is not a folder" -- run --model "$out/twice.json/x"
expect "--model: /dev/zero: a device, not a regular file" -- run --model /dev/zero
expect "--model: $out/big.json: 2000000 bytes; a config.json is at most 1 MiB" -- run --model "$out/big.json"
expect "--model: $out: a folder, not a config.json file" -- run --model "$out"
expect "--model: must not be empty" -- run --model ""
# The model is applied first, so a bad typed option is still refused in one line.
expect "width must be between 8 and 16384 (got 0)" -- run --model llama-3.2-1b --width 0

# Typed options override the model: SmolLM2-135M's width, heads and MLP with one layer, a
# vocabulary of 1000 and fp32 instead of its 30 layers, 49152 tokens and bfloat16.
run_out=$("$cli" run --model smollm2-135m --depth 1 --vocab 1000 --precision float32 --seq 8 \
    --batch 1 --warmup 0 --repeats 1 2>"$out/run.err")
code=$?
[[ $code -eq 0 ]] || fail "run --model smollm2-135m exited $code: $(cat "$out/run.err")"
grep -qF "model: block=llama depth=1 width=576 seq=8 batch=1 heads=9 kv-heads=3 head-dim=64 ffn-width=1536 rope-theta=1e+05 rms-norm-eps=1e-05 attention=memory-efficient attention-chunk=128 vocab=1000 tie-embeddings loss-chunks=1 precision=float32 " <<<"$run_out" ||
    fail "run --model smollm2-135m with overrides printed: $run_out"
# Llama-3.2-1B's rope scaling is said once on stderr (and not with -q).
"$cli" run --model llama-3.2-1b --depth 1 --width 64 --heads 4 --kv-heads 2 --ffn-width 64 \
    --vocab 100 --seq 8 --batch 1 --warmup 0 --repeats 1 >"$out/note.out" 2>"$out/note.err" ||
    fail "run --model llama-3.2-1b failed: $(cat "$out/note.err")"
grep -qF "ckptlab-cli: note: --model llama-3.2-1b: rope scaling llama3 (factor 32) changes only the rotary frequencies, not memory or time" "$out/note.err" ||
    fail "no rope scaling note: $(cat "$out/note.err")"
grep -qF "mixed-bf16" "$out/note.out" || fail "llama-3.2-1b did not run in mixed-bf16: $(cat "$out/note.out")"
"$cli" run -q --model llama-3.2-1b --depth 1 --width 64 --heads 4 --kv-heads 2 --ffn-width 64 \
    --vocab 100 --seq 8 --batch 1 --warmup 0 --repeats 1 >/dev/null 2>"$out/quiet.err"
grep -qF "note: --model" "$out/quiet.err" && fail "-q still printed the model's note"

if [[ $failures -gt 0 ]]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "cli_models: all checks passed"
