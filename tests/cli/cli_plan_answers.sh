#!/usr/bin/env bash
# plan --capacity's answers are numbers only where they are numbers, and it takes what the rest
# of the program takes: a strategy with no schedule at the asked size says "infeasible" with its
# least peak in the table and in --json (null for each number it has not); the defaults are the
# app's (Adam, batch 1, sequence 2048); a size the program prints reads back; duplicates are
# refused as sweep refuses them; --costs-from refuses a none step that is not a time and a file
# whose work differs in any field of the registry, naming the field and both values.
set -eu
cli=$1
out=$2
rm -rf "$out" && mkdir -p "$out"

cat > "$out/tiny.json" <<'JSON'
{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64,
 "intermediate_size": 128, "num_hidden_layers": 4, "num_attention_heads": 4,
 "num_key_value_heads": 2, "vocab_size": 512, "rms_norm_eps": 1e-05, "rope_theta": 10000.0,
 "tie_word_embeddings": false, "torch_dtype": "bfloat16"}
JSON
tiny=(--model "$out/tiny.json" --threads 1)
fail() { echo "FAIL: $*"; exit 1; }

# 1. No --seq, --batch or --optimizer: the app's defaults. An optimal budget of a kilobyte has
# no schedule at that size: the row says so, never zeros or a "+0.00" margin.
"$cli" plan "${tiny[@]}" --capacity "512 MB" --strategies none,optimal:0.001,full \
    --json "$out/plan.json" > "$out/plan.txt" 2> "$out/plan.err" || fail "plan exited $?"
cat "$out/plan.txt"
python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
text = open(f"{out}/plan.txt").read()
assert re.search(r"^model: .*, 4 layers, S=2048, B=1, mixed-bf16, optimizer adam, ", text,
                 re.M), "the defaults are not the app's"
assert "capacity: 512.00 MB (488.28 MiB)" in text, text
row = [l for l in text.splitlines() if l.startswith("optimal:0.001 ")]
assert len(row) == 1, row
m = re.match(r"^optimal:0\.001 +infeasible: the least peak is ([0-9.]+) MB above the step's "
             r"start, over its budget +(\S+) +(\S+) +(\S+) +(\S+)$", row[0])
assert m, row[0]
assert "+0.00" not in row[0] and " 0.00 " not in row[0], row[0]
plan = json.load(open(f"{out}/plan.json"))
by = {s["strategy"]: s for s in plan["strategies"]}
bad = by["optimal:0.001"]
assert bad["least_peak_bytes"] > 1024 and bad["fits"] is False, bad
assert f"{bad['least_peak_bytes'] / 1e6:.2f}" == m.group(1), (bad, m.group(1))
for key in ["allocated_bytes", "reserved_bytes", "peak_bytes", "baseline_bytes", "split",
            "margin_bytes", "step_ms"]:
    assert bad[key] is None, (key, bad[key])
for name in ["none", "full"]:
    assert "least_peak_bytes" not in by[name] and by[name]["reserved_bytes"] > 0, by[name]
    assert by[name]["margin_bytes"] == 512 * 10**6 - by[name]["reserved_bytes"]
assert plan["config"]["seq"] == 2048 and plan["config"]["batch"] == 1
assert plan["config"]["optimizer"] == "adam"
print("infeasible row and defaults: ok")
PY

# 2. A size the program printed, typed back: the same capacity.
printed=$(sed -n 's/^capacity: \(.*\) (\(.*\))$/\2/p' "$out/plan.txt")
[[ -n $printed ]] || fail "no capacity line"
"$cli" plan "${tiny[@]}" --capacity "$printed" --strategies none --json "$out/back.json" -q \
    > /dev/null || fail "the printed $printed refused"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
a = json.load(open(f"{out}/plan.json"))["capacity_bytes"]
b = json.load(open(f"{out}/back.json"))["capacity_bytes"]
# 488.28 MiB is 512 MB to its last digit.
assert abs(a - b) <= 0.005 * 2**20, (a, b)
PY

expect_refusal() {  # TEXT args...
    local text=$1 code=0
    shift
    "$cli" plan "$@" > "$out/refused.txt" 2>&1 || code=$?
    [[ $code == 2 ]] || fail "exit $code, not 2, for: $* ($(cat "$out/refused.txt"))"
    grep -qF -- "$text" "$out/refused.txt" || fail "'$text' not said for: $* ($(cat "$out/refused.txt"))"
    [[ $(wc -l < "$out/refused.txt") -eq 1 ]] || fail "not one line: $(cat "$out/refused.txt")"
}

# 3. Capacities: bits, an ambiguous unit, blanks inside, and the largest printed in GiB.
expect_refusal "a lowercase b is bits, and --capacity takes bytes: 80GB?" "${tiny[@]}" --capacity 80Gb
expect_refusal "blanks only between the number and the unit" "${tiny[@]}" --capacity "8 0 G B"
expect_refusal "KB is 1000 or 1024 bytes" "${tiny[@]}" --capacity 80KB
expect_refusal "presets: 24GB" "${tiny[@]}" --capacity 80gB

# 4. The same strategy twice: sweep's message, from the same rule.
expect_refusal "strategies: none is listed twice (items 1 and 2)" "${tiny[@]}" --capacity 24GB \
    --strategies none,none
sweep_text=$("$cli" sweep --depth 2 --width 16 --seq 8 --strategies none,none 2>&1 || true)
grep -qF "strategies: none is listed twice (items 1 and 2)" <<< "$sweep_text" ||
    fail "sweep says another message: $sweep_text"

# 5. --costs-from: a tiny sweep of the same work; a none step that is not a time and every field
# of the work that differs are refused before anything is measured.
"$cli" sweep "${tiny[@]}" --optimizer adam --depth 2 --seq 64 --batch 1 --strategies none \
    --warmup 0 --repeats 1 -q --json "$out/same.json" > /dev/null
edit() {  # NAME PYTHON-STATEMENT on run (the none run's dict)
    python3 - "$out/same.json" "$out/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
run = d["runs"][0]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}
costs=("${tiny[@]}" --optimizer adam --capacity 24GB)
edit tiny_step 'run["metrics"]["step_ms"] = 1e-300'
expect_refusal "its none step of 1e-300 ms is not a measured step time" "${costs[@]}" \
    --costs-from "$out/tiny_step.json"
edit zero_step 'run["metrics"]["step_ms"] = 0'
expect_refusal "from 0.001 ms (1 microsecond)" "${costs[@]}" --costs-from "$out/zero_step.json"
edit qkv 'run["config"]["qkv_bias"] = True'
expect_refusal "its none run's qkv-bias is yes, this plan's no" "${costs[@]}" \
    --costs-from "$out/qkv.json"
edit tied 'run["config"]["tie_embeddings"] = True'
expect_refusal "its none run's tie-embeddings is yes, this plan's no" "${costs[@]}" \
    --costs-from "$out/tied.json"
edit chunks 'run["config"]["loss_chunks"] = 4'
expect_refusal "its none run's loss-chunks is 4, this plan's 1" "${costs[@]}" \
    --costs-from "$out/chunks.json"
edit system 'run["config"]["allocator"] = "system"'
expect_refusal "its none run's allocator is system, this plan's caching" "${costs[@]}" \
    --costs-from "$out/system.json"
edit kept 'run["config"]["keep_grads"] = True'
expect_refusal "its none run's keep-grads is yes, this plan's no" "${costs[@]}" \
    --costs-from "$out/kept.json"
expect_refusal "its none run's optimizer is adam, this plan's none" "${tiny[@]}" --optimizer none \
    --capacity 24GB --costs-from "$out/same.json"
# A plan's file holds predictions, not a measured none step.
root=$(cd "$(dirname "$0")/../.." && pwd)
expect_refusal "holds a full-size plan, not measured runs" "${costs[@]}" \
    --costs-from "$root/resources/lessons/recordings/a-real-model/bfloat16.json"
echo "cli plan answers ok"
