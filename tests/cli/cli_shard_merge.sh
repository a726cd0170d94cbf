#!/usr/bin/env bash
# One tiny sweep run whole and as 3 shards at once (background processes): shard 0 through the
# Slurm script (packaging/cluster/slurm_sweep.sbatch run by bash in a fake array task), shard 1
# as a Kubernetes Indexed Job's pod would (JOB_COMPLETION_INDEX, --shard-count), shard 2 with
# --shard. The merged file must equal the whole sweep in every field that does not depend on the
# process (memory, timelines, breakdowns, gradient checks, schedules, forward counts, predicted
# peaks), in the same order, each run naming its shard's machine and compared with its own
# shard's none. Then merges that must be refused (exit 2, one line naming the files), the Slurm
# script's default command line through a fake ckptlab-cli, and the Kubernetes manifest parsed.
set -eu
cli=$1
out=$2
cluster=$(cd "$3" && pwd)  # packaging/cluster
rm -rf "$out" && mkdir -p "$out"
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_STEP \
    JOB_COMPLETION_INDEX

fail() {
    echo "FAIL: $*"
    exit 1
}

strategies=none,full,every:2,sqrt,from:2
model="--depth 4 --width 64 --seq 32 --batch 1 --warmup 0 --repeats 1"
# shellcheck disable=SC2086
tiny() { "$cli" sweep --device cpu --strategies "$strategies" $model "$@"; }

tiny -q --json "$out/whole.json" > /dev/null

# The three shards at once. Slurm's array here runs 1-3, so task 1 is shard 0.
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 CKPTLAB_CLI=$cli \
    CKPTLAB_RESULTS=$out/slurm CKPTLAB_DEVICE=cpu CKPTLAB_STRATEGIES=$strategies \
    CKPTLAB_SWEEP_OPTIONS="$model" bash "$cluster/slurm_sweep.sbatch" \
    > "$out/shard-0.out" 2> "$out/shard-0.err" &
slurm=$!
JOB_COMPLETION_INDEX=1 tiny --shard-count 3 --json "$out/shard-1.json" \
    > "$out/shard-1.out" 2> "$out/shard-1.err" &
k8s=$!
tiny --shard 2/3 --json "$out/shard-2.json" > "$out/shard-2.out" 2> "$out/shard-2.err" &
explicit=$!
for job in "$slurm:0" "$k8s:1" "$explicit:2"; do
    wait "${job%%:*}" || fail "shard ${job##*:} exited $?: $(cat "$out/shard-${job##*:}.err")"
done
cp "$out/slurm/shard-1.json" "$out/shard-0.json"  # the script names it by the task id

# Each says which shard it is and where that came from, on one line.
grep -qx "ckptlab-cli: shard 0 of 3 (0-based), from SLURM_ARRAY_TASK_ID=1 - SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_COUNT=3" \
    "$out/shard-0.err" || fail "shard 0's line: $(cat "$out/shard-0.err")"
grep -qx "ckptlab-cli: shard 1 of 3 (0-based), from JOB_COMPLETION_INDEX=1, --shard-count 3" \
    "$out/shard-1.err" || fail "shard 1's line: $(cat "$out/shard-1.err")"
grep -qx "ckptlab-cli: shard 2 of 3 (0-based), from --shard 2/3" "$out/shard-2.err" ||
    fail "shard 2's line: $(cat "$out/shard-2.err")"

# Given in any order.
"$cli" merge "$out/shard-2.json" "$out/shard-0.json" "$out/shard-1.json" --json "$out/all.json" \
    --csv "$out/all.csv" > "$out/merge.txt" || fail "merge exited $?"
cat "$out/merge.txt"
grep -q "^shard 2: " "$out/merge.txt" || fail "the shards' machines are not listed"

python3 - "$out" <<'PY'
import csv, json, sys
out = sys.argv[1]
whole = json.load(open(f"{out}/whole.json"))
merged = json.load(open(f"{out}/all.json"))
shards = [json.load(open(f"{out}/shard-{k}.json")) for k in range(3)]

# The shards: one sweep, dealt round robin, `none` in each (owned by shard 0 only).
ids = {s["shard"]["sweep_id"] for s in shards}
assert len(ids) == 1, ids
for k, s in enumerate(shards):
    sh = s["shard"]
    assert (sh["index"], sh["count"], sh["work_items"]) == (k, 3, 5), sh
    own = [r["shard"]["position"] for r in s["runs"] if r["shard"]["owned"]]
    assert own == [p for p in range(5) if p % 3 == k], (k, own)
    nones = [r for r in s["runs"] if r["strategy"] == "none"]
    assert len(nones) == 1 and nones[0]["shard"]["owned"] == (k == 0), (k, nones)

# The merged file: the whole sweep's runs in its order, each with its shard's machine.
assert merged["merged"] == {"sweep_id": ids.pop(), "count": 3}, merged["merged"]
assert "shard" not in merged
assert len(merged["machines"]) == 3
assert merged["environment"] == merged["machines"][0]
names = [r["strategy"] for r in whole["runs"]]
assert [r["strategy"] for r in merged["runs"]] == names, [r["strategy"] for r in merged["runs"]]
assert [r["machine"] for r in merged["runs"]] == [p % 3 for p in range(5)]
assert all("shard" not in r for r in merged["runs"])
baselines = merged["machine_baselines"]
assert [(b["strategy"], b["machine"]) for b in baselines] == [("none", 1), ("none", 2)], baselines
assert all(b["timeline"]["t_ms"] == [] for b in baselines)
assert merged["cancelled"] is False

def same(a, b, what):
    assert a == b, f"{what}: {a!r} != {b!r}"

for w, m in zip(whole["runs"], merged["runs"]):
    s = w["strategy"]
    for key in ("peak_bytes", "activation_bytes", "baseline_bytes", "recomputed_blocks",
                "step_gflop"):
        same(w["metrics"].get(key), m["metrics"].get(key), f"{s} metrics.{key}")
    for column in ("delta", "total", "phase", "block"):
        same(w["timeline"][column], m["timeline"][column], f"{s} timeline.{column}")
    same(len(w["timeline"]["t_ms"]), len(m["timeline"]["t_ms"]), f"{s} timeline events")
    same(w["breakdown"], m["breakdown"], f"{s} breakdown")
    same([(b["block"], b["phase"], b["bytes"]) for b in w["blocks"]],
         [(b["block"], b["phase"], b["bytes"]) for b in m["blocks"]], f"{s} lifetimes")
    same([(p["phase"], p["block"]) for p in w["phases"]],
         [(p["phase"], p["block"]) for p in m["phases"]], f"{s} phases")
    same(w["grad_check"], m["grad_check"], f"{s} grad_check")
    assert m["grad_check"]["passed"] is True, s
    same(w["schedule"], m["schedule"], f"{s} schedule")
    same(w["forward_counts"], m["forward_counts"], f"{s} forward_counts")
    for key in ("peak_bytes", "activation_bytes"):
        same(w["prediction"][key], m["prediction"][key], f"{s} prediction.{key}")
    same(w["config"], m["config"], f"{s} config")

# Time added: each run against the none of its own shard; memory saved against any none
# (the same bytes everywhere).
none_ms = {0: merged["runs"][0]["metrics"]["step_ms"]}
for b in baselines:
    none_ms[b["machine"]] = b["metrics"]["step_ms"]
rows = list(csv.DictReader(open(f"{out}/all.csv")))
same([r["strategy"] for r in rows], names, "CSV rows")
for row, run in zip(rows, merged["runs"]):
    expected = (run["metrics"]["step_ms"] / none_ms[run["machine"]] - 1) * 100
    got = float(row["time_added_pct"])
    assert abs(got - expected) < 0.006, (row["strategy"], got, expected)
    assert row["memory_saved_pct"] != "", row
print("merged sweep matches the whole sweep in", len(rows), "runs")
PY

# The merged file opens like any other: plot renders it (when this build has charts) and
# compare sets it beside the whole sweep, none matched once.
"$cli" compare "$out/whole.json" "$out/all.json" --json "$out/cmp.json" > /dev/null ||
    fail "compare of the merged file exited $?"
python3 - "$out/cmp.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
assert [r["strategy"] for r in c["rows"]] == ["none", "full", "every:2", "sqrt", "from:2"], c["rows"]
assert not [n for n in c["notes"] if n["kind"] == "duplicate_run"], c["notes"]
for row in c["rows"]:
    assert row["cells"][1]["peak_ratio"] == 1.0, row
PY

# Merges that must be refused: exit 2, one line naming the files.
expect_bad() {  # expect_bad TEXT MERGE-ARGS...
    local text=$1 err code
    shift
    set +e
    err=$("$cli" merge "$@" 2>&1 > /dev/null)
    code=$?
    set -e
    [[ $code -eq 2 ]] || fail "merge $* exited $code, not 2: $err"
    [[ $(printf '%s' "$err" | grep -c '') -eq 1 ]] || fail "merge $*: not one line: $err"
    grep -qF -- "$text" <<< "$err" || fail "merge $*: wanted '$text', got: $err"
}
tiny -q --seed 7 --shard 1/3 --json "$out/other-1.json" > /dev/null
tiny -q --shard 1/2 --json "$out/half-1.json" > /dev/null
cp "$out/shard-1.json" "$out/copy-1.json"
expect_bad "$out/shard-0.json and $out/other-1.json are shards of different sweeps (sweep " \
    "$out/shard-0.json" "$out/other-1.json" "$out/shard-2.json"
expect_bad "the config differs in seed: 0 in $out/shard-0.json, 7 in $out/other-1.json" \
    "$out/shard-0.json" "$out/other-1.json" "$out/shard-2.json"
expect_bad "$out/shard-1.json and $out/copy-1.json are both shard 1 of 3" \
    "$out/shard-0.json" "$out/shard-1.json" "$out/copy-1.json" "$out/shard-2.json"
expect_bad "shard 1 of 3 is missing: give every shard's file, or --allow-partial" \
    "$out/shard-0.json" "$out/shard-2.json"
expect_bad "mixed shard counts: $out/shard-0.json is shard 0 of 3, $out/half-1.json shard 1 of 2" \
    "$out/shard-0.json" "$out/half-1.json"
expect_bad "$out/whole.json is not a shard's file" "$out/whole.json" "$out/shard-1.json"
expect_bad "$out/all.json is merged already" "$out/all.json"
expect_bad "$out/shard-1.json is given twice" "$out/shard-1.json" "$out/shard-1.json"
expect_bad "--json $out/shard-0.json is the input $out/shard-0.json" \
    "$out/shard-0.json" "$out/shard-1.json" "$out/shard-2.json" --json "$out/shard-0.json"
expect_bad "cannot open" "$out/shard-0.json" "$out/nonexistent.json"

# Shard files edited after the run: each refusal names the file, the run and the true cause.
# shard-1.json holds none (shard 0's, position 0), full (1) and from:2 (4).
tamper() {  # tamper NAME PYTHON: shard-1.json edited by PYTHON (on `d`) as NAME.json
    python3 - "$out/shard-1.json" "$out/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}
tamper renamed 'd["runs"][1]["strategy"] = "sqrt"'
expect_bad "$out/renamed.json: runs[1] stands at position 1, which the sweep's work list gives to full, but it is sqrt" \
    "$out/shard-0.json" "$out/renamed.json" "$out/shard-2.json"
tamper config 'd["runs"][2]["config"]["batch"] = 2'
expect_bad "$out/config.json: runs[2] (from:2) was run with another config than the sweep's other runs at its size: batch: 2 in $out/config.json: runs[2], 1 in $out/shard-0.json: runs[0]" \
    "$out/shard-0.json" "$out/config.json" "$out/shard-2.json"
tamper cut 'd["runs"].pop()'
expect_bad "$out/cut.json (shard 1 of 3) holds 2 of its 3 runs, position 4 (from:2) first missing, and is not marked interrupted" \
    "$out/shard-0.json" "$out/cut.json" "$out/shard-2.json"
tamper moved 'd["runs"][1]["shard"]["position"] = 4; d["runs"][2]["shard"]["position"] = 1'
expect_bad "$out/moved.json: runs[1] stands at position 4, where the deal of shard 1 of 3 has position 1 (full)" \
    "$out/shard-0.json" "$out/moved.json" "$out/shard-2.json"
tamper list 'd["shard"]["strategies"][1] = "sqrt"'
expect_bad "$out/list.json: its 5 work items of the strategies none, sqrt, every:2, sqrt, from:2 are not the work list its work_id" \
    "$out/shard-0.json" "$out/list.json" "$out/shard-2.json"
tamper older 'del d["shard"]["strategies"]'
expect_bad "$out/older.json names no strategies in its \"shard\"" \
    "$out/shard-0.json" "$out/older.json" "$out/shard-2.json"
tamper bogus 'd["shard"]["strategies"][2] = "bogus"'
expect_bad "$out/bogus.json: shard.strategies[2]: expected a strategy name, got \"bogus\"" \
    "$out/shard-0.json" "$out/bogus.json" "$out/shard-2.json"
# Another version: its sweep id differs too (it includes the version), but the version is named.
tamper version 'd["environment"]["ckptlab_version"] = "0.0.1"; d["shard"]["sweep_id"] = "0123456789abcdef"'
version=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["environment"]["ckptlab_version"])' "$out/shard-0.json")
expect_bad "$out/shard-0.json was written by Checkpoint Lab $version and $out/version.json by 0.0.1: run every shard of a sweep with one version" \
    "$out/shard-0.json" "$out/version.json" "$out/shard-2.json"

# A partial merge when asked for: said in the file.
"$cli" merge -q "$out/shard-0.json" "$out/shard-2.json" --allow-partial --json "$out/part.json" \
    > /dev/null || fail "merge --allow-partial exited $?"
python3 - "$out/part.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
assert p["merged"]["missing"] == [1] and p["cancelled"] is True, p["merged"]
assert [r["strategy"] for r in p["runs"]] == ["none", "every:2", "sqrt"], p["runs"]
assert [r["machine"] for r in p["runs"]] == [0, 1, 0], p["runs"]
PY

# The Slurm script's own command line, through a ckptlab-cli that only records it.
cat > "$out/fake-cli" << 'SH'
#!/usr/bin/env bash
printf '%s\n' "$@" > "$FAKE_ARGS"
SH
chmod +x "$out/fake-cli"
(cd "$out" && SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=4 CKPTLAB_CLI=$out/fake-cli \
    FAKE_ARGS=$out/args.txt bash "$cluster/slurm_sweep.sbatch") || fail "the Slurm script failed"
args=$(tr '\n' ' ' < "$out/args.txt")
[[ $args == "sweep --shard auto --device cuda:0 --strategies "*" --json results/shard-3.json " ]] ||
    fail "the Slurm script ran: $args"
[[ -d $out/results ]] || fail "the Slurm script did not make its results folder"
grep -q "^#SBATCH --array=0-3$" "$cluster/slurm_sweep.sbatch" || fail "no --array=0-3"
grep -q "^#SBATCH --gres=gpu:1$" "$cluster/slurm_sweep.sbatch" || fail "no --gres=gpu:1"

# The Kubernetes manifest: an Indexed Job whose --shard-count is its completions.
if python3 -c 'import yaml' 2> /dev/null; then
    python3 - "$cluster/indexed_job.yaml" <<'PY'
import sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1])))
job = next(d for d in docs if d["kind"] == "Job")
spec = job["spec"]
assert spec["completionMode"] == "Indexed", spec
assert spec["completions"] == spec["parallelism"] == 4, spec
pod = spec["template"]["spec"]
container = pod["containers"][0]
args = container["args"]
assert args[0] == "sweep"
assert args[args.index("--shard-count") + 1] == str(spec["completions"]), args
assert args[args.index("--json") + 1] == "/results/shard-$(JOB_COMPLETION_INDEX).json", args
assert "--shard" not in args, args
env = {e["name"]: e for e in container["env"]}
assert "JOB_COMPLETION_INDEX" in env, env
mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
assert mounts.get("results") == "/results", mounts
volumes = {v["name"]: v for v in pod["volumes"]}
claim = volumes["results"]["persistentVolumeClaim"]["claimName"]
assert any(d["kind"] == "PersistentVolumeClaim" and d["metadata"]["name"] == claim for d in docs)
print("indexed_job.yaml: an Indexed Job of", spec["completions"], "shards")
PY
else
    echo "skipped: python3 has no yaml module (python3-yaml), indexed_job.yaml not parsed"
fi
echo "shards and merge ok"
