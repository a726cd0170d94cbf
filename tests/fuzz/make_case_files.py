#!/usr/bin/env python3
"""Writes the hand-made results files of tests/data/fuzz/corrupt and tests/data/fuzz/valid.

    make_case_files.py DATA_DIR       (DATA_DIR = tests/data/fuzz; reads valid/tiny-sweep.json)

corrupt/: each must be refused with a one-line message (the replay and `ckptlab-cli plot`
check that). valid/: each must load, and plot to well-formed SVG; valid/markup-* carry markup
in the texts that reach chart titles, legends and the SVG's title and description.
The output is checked in; run this again after changing a case. Cases too big to check in are
made at test time by make_corrupt_files.py.
"""
import copy
import json
import os
import random
import sys


def main():
    data = sys.argv[1]
    with open(os.path.join(data, "valid", "tiny-sweep.json"), encoding="utf-8") as f:
        sweep = json.load(f)
    # The real sweep with its traces cut short, so that a hundred variants stay small.
    good = copy.deepcopy(sweep)
    for run in good["runs"]:
        for column in ("t_ms", "delta", "total", "phase", "block"):
            run["timeline"][column] = run["timeline"][column][:6]
        run["blocks"] = run["blocks"][:2]
        run["phases"] = run["phases"][:4]
        run["metrics"]["step_samples_ms"] = run["metrics"]["step_samples_ms"][:2]
    good_text = json.dumps(good, indent=1) + "\n"
    corrupt_dir = os.path.join(data, "corrupt")
    valid_dir = os.path.join(data, "valid")
    os.makedirs(corrupt_dir, exist_ok=True)

    def put(folder, name, content):
        if isinstance(content, str):
            content = content.encode("utf-8")
        with open(os.path.join(folder, name), "wb") as out:
            out.write(content)

    def corrupt(name, content):
        put(corrupt_dir, name, content)

    def valid(name, content):
        put(valid_dir, name, content)

    def dump(doc):
        return json.dumps(doc, ensure_ascii=False) + "\n"

    def edited(change):
        doc = copy.deepcopy(good)
        change(doc)
        return dump(doc)

    def run0(doc):
        return doc["runs"][0]

    def setter(path, value):
        def change(doc):
            target = doc
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        return change

    # Not text, not JSON, not whole.
    corrupt("empty.json", "")
    corrupt("blank.json", "  \n\t\r\n")
    corrupt("truncated-half.json", good_text[: len(good_text) // 2])
    cut = good_text.index('"strategy": "full"') + 10
    corrupt("truncated-in-string.json", good_text[:cut])
    cut = good_text.index("}", good_text.index('"breakdown"')) + 1
    corrupt("truncated-after-inner-brace.json", good_text[:cut])
    corrupt("truncated-one-byte.json", good_text.rstrip()[:-1])
    rng = random.Random(7)
    corrupt("binary.bin", bytes(rng.getrandbits(8) for _ in range(4096)))
    corrupt("png.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(rng.getrandbits(8) for _ in range(512)))
    corrupt("binary-in-braces.json", b"{" + bytes(rng.getrandbits(8) for _ in range(2048)) + b"}")
    corrupt("nul-bytes.json", good_text[:200].encode() + b"\0\0\0" + good_text[200:].encode())
    corrupt("utf16.json", good_text.encode("utf-16"))
    corrupt("trailing-garbage.json", good_text + "x")
    corrupt("two-documents.json", good_text + good_text)
    corrupt("comment.json", "// results\n" + good_text)
    corrupt("single-quotes.json", good_text.replace('"schema"', "'schema'", 1))
    corrupt("trailing-comma.json", good_text.replace('"cancelled": false,', '"cancelled": false,,', 1))

    # Not ours, or not this version.
    corrupt("wrong-schema.json", edited(setter(["schema"], "other.tool/7")))
    corrupt("future-version.json", edited(setter(["schema"], "ckptlab.results/2")))
    corrupt("schema-version-0.json", edited(setter(["schema"], "ckptlab.results/0")))
    corrupt("schema-with-newline.json", edited(setter(["schema"], "ckptlab.results/1\nsecond line")))
    corrupt("schema-missing.json", edited(lambda d: d.pop("schema")))
    corrupt("schema-not-string.json", edited(setter(["schema"], 1)))
    corrupt("top-level-array.json", "[" + good_text + "]")
    corrupt("top-level-string.json", '"ckptlab.results/1"')
    corrupt("chrome-trace.json", '{"traceEvents": [], "displayTimeUnit": "ms"}')

    # Numbers: NaN and Infinity are not JSON; the rest are out of what can be measured.
    corrupt("nan-literal.json", good_text.replace('"step_ms": ', '"step_ms": NaN, "x": ', 1))
    corrupt("infinity-literal.json", good_text.replace('"step_ms": ', '"step_ms": Infinity, "x": ', 1))
    corrupt("number-overflow.json", good_text.replace('"step_ms": ', '"step_ms": 1e999, "x": ', 1))
    corrupt("negative-bytes.json", edited(lambda d: run0(d)["metrics"].update(peak_bytes=-1)))
    corrupt("negative-duration.json", edited(lambda d: run0(d)["metrics"].update(step_ms=-3.5)))
    corrupt("negative-sample.json", edited(lambda d: run0(d)["metrics"].update(step_samples_ms=[1, "-inf"])))
    corrupt("huge-bytes.json", edited(lambda d: run0(d)["metrics"].update(peak_bytes=2**60)))
    corrupt("huge-breakdown.json",
            edited(lambda d: run0(d)["breakdown"].update(parameters=2**63 - 1, input=2**63 - 1)))
    corrupt("huge-integer.json", good_text.replace('"peak_bytes": ', '"peak_bytes": 1' + "0" * 30 + ', "x": ', 1))
    corrupt("int64-min.json", edited(lambda d: run0(d)["timeline"]["delta"].__setitem__(0, -2**63)))
    corrupt("huge-duration.json", edited(lambda d: run0(d)["metrics"].update(step_ms=1e300)))
    corrupt("nan-time.json", edited(lambda d: run0(d)["timeline"]["t_ms"].__setitem__(0, "nan")))
    corrupt("inf-phase-end.json", edited(lambda d: run0(d)["phases"][0].update(end_ms="inf")))
    corrupt("huge-time.json", edited(lambda d: run0(d)["blocks"][0].update(freed_ms=1e200)))
    corrupt("negative-max-abs-diff.json", edited(lambda d: run0(d)["grad_check"].update(max_abs_diff=-1)))
    corrupt("negative-tolerance.json", edited(lambda d: run0(d)["grad_check"].update(tolerance="-inf")))
    corrupt("nan-dropout.json", edited(lambda d: run0(d)["config"].update(dropout="nan")))
    corrupt("huge-depth.json", edited(lambda d: run0(d)["config"].update(depth=2**31)))
    corrupt("negative-seed.json", edited(lambda d: run0(d)["config"].update(seed=-1)))
    corrupt("number-as-string.json", edited(lambda d: run0(d)["metrics"].update(step_ms="12.5")))

    # Wrong types and shapes.
    corrupt("runs-not-array.json", edited(setter(["runs"], 5)))
    corrupt("runs-object.json", edited(setter(["runs"], {"0": good["runs"][0]})))
    corrupt("metrics-array.json", edited(lambda d: run0(d).update(metrics=[])))
    corrupt("depth-string.json", edited(lambda d: run0(d)["config"].update(depth="4")))
    corrupt("cancelled-string.json", edited(setter(["cancelled"], "no")))
    corrupt("run-null.json", edited(lambda d: d["runs"].__setitem__(0, None)))
    corrupt("environment-missing.json", edited(lambda d: d.pop("environment")))
    corrupt("error-number.json", edited(lambda d: run0(d).update(error=5)))
    corrupt("timeline-columns-differ.json", edited(lambda d: run0(d)["timeline"]["delta"].pop()))
    corrupt("timeline-phase-code.json", edited(lambda d: run0(d)["timeline"]["phase"].__setitem__(0, 99)))
    corrupt("block-out-of-range.json", edited(lambda d: run0(d)["blocks"][0].update(block=4)))
    corrupt("unknown-block-kind.json", edited(lambda d: run0(d)["config"].update(block="rnn")))
    corrupt("strategy-empty.json", edited(lambda d: run0(d).update(strategy="")))
    corrupt("strategy-too-long.json", edited(lambda d: run0(d).update(strategy="x" * 5000)))
    corrupt("strategy-newline.json", edited(lambda d: run0(d).update(strategy="every:2\nfull")))
    corrupt("strategy-nul.json", edited(lambda d: run0(d).update(strategy="nul\u0000inside")))
    corrupt("strategy-noncharacter.json", edited(lambda d: run0(d).update(strategy="x\uffff")))

    # Schedules are parsed and drawn.
    corrupt("schedule-garbage.json", edited(lambda d: run0(d).update(schedule="ckpt[0,9){0}")))
    corrupt("schedule-too-deep.json",
            edited(lambda d: run0(d).update(schedule="ckpt[0,4){" * 5000 + "0 1 2 3" + "}" * 5000)))
    corrupt("schedule-wrong-units.json", edited(lambda d: run0(d).update(schedule="0 1")))
    corrupt("schedule-past-model.json", edited(lambda d: run0(d).update(schedule="0 1 2 3 4 5 6 7 999999")))
    corrupt("forward-counts-size.json", edited(lambda d: run0(d).update(forward_counts=[1] * 1000)))

    # The caching allocator's counts and segments: a trace the program could not have written.
    def with_trace(d):
        r = run0(d)
        r["config"]["allocator"] = "caching"
        r["metrics"]["minor_faults_per_step"] = 0.0
        r["allocator"] = {"source": "caching-model", "allocated_start": 35328,
                          "allocated_peak": 74240, "reserved_start": 2097152,
                          "reserved_peak": 2097152}
        r["allocator_trace"] = {
            "phase_codes": ["idle", "forward", "loss", "recompute", "backward", "optimizer"],
            "segment_columns": ["size", "small_pool", "created_ms", "released_ms"],
            "segments": [[2097152, True, None, None]],
            "block_columns": ["segment", "offset", "size", "requested", "allocated_ms",
                              "freed_ms", "phase", "block"],
            "blocks": [[0, 0, 34816, 34560, None, None, 0, -1],
                       [0, 34816, 512, 512, None, None, 0, -1],
                       [0, 35328, 512, 32, 0.061663, 0.462815, 1, 0]]}
        return r

    def trace_edit(change):
        def edit(d):
            change(with_trace(d))
        return edited(edit)
    corrupt("trace-negative-size.json",
            trace_edit(lambda r: r["allocator_trace"]["blocks"][2].__setitem__(2, -512)))
    corrupt("trace-block-outside-segment.json",
            trace_edit(lambda r: r["allocator_trace"]["blocks"][2].__setitem__(1, 2097152 - 256)))
    corrupt("trace-segment-out-of-range.json",
            trace_edit(lambda r: r["allocator_trace"]["blocks"][1].__setitem__(0, 1)))
    corrupt("trace-requested-above-size.json",
            trace_edit(lambda r: r["allocator_trace"]["blocks"][0].__setitem__(3, 34817)))
    corrupt("trace-freed-before-allocated.json",
            trace_edit(lambda r: r["allocator_trace"]["blocks"][2].__setitem__(5, 0.01)))
    corrupt("trace-short-row.json",
            trace_edit(lambda r: r["allocator_trace"]["blocks"][2].pop()))
    corrupt("trace-columns-renamed.json",
            trace_edit(lambda r: r["allocator_trace"]["block_columns"].__setitem__(1, "address")))
    corrupt("allocator-peak-below-start.json",
            trace_edit(lambda r: r["allocator"].update(reserved_peak=1024)))
    corrupt("allocator-unknown-source.json",
            trace_edit(lambda r: r["allocator"].update(source="jemalloc")))
    corrupt("allocator-and-cuda-allocator.json",
            trace_edit(lambda r: r.update(cuda_allocator={"allocated_start": 0, "allocated_peak": 0,
                                                          "reserved_start": 0, "reserved_peak": 0})))
    corrupt("unknown-allocator-kind.json", edited(lambda d: run0(d)["config"].update(allocator="jemalloc")))

    # Nesting 10,000 deep where an object belongs.
    corrupt("nesting-10000.json", good_text.replace('"environment": ', '"environment": ' + "[" * 10000 + "]" * 10000 + ', "x": ', 1))
    corrupt("nesting-10000-top.json", "[" * 10000 + "]" * 10000)
    corrupt("nesting-10000-objects.json", '{"a":' * 10000 + "1" + "}" * 10000)

    # Duplicate keys: one of the two values would be lost silently.
    corrupt("duplicate-key-top.json", good_text.replace('"cancelled": false,', '"cancelled": false, "cancelled": true,', 1))
    corrupt("duplicate-key-metrics.json", good_text.replace('"peak_bytes": ', '"peak_bytes": 1, "peak_bytes": ', 1))
    corrupt("duplicate-key-runs.json", good_text.replace('"runs": [', '"runs": [], "runs": [', 1))

    # Invalid UTF-8 (the message names the byte).
    corrupt("invalid-utf8-ff.json",
            good_text.encode().replace(b'"strategy": "none"', b'"strategy": "no\xffne"', 1))
    corrupt("invalid-utf8-overlong.json", good_text.encode().replace(b'"device_name": "', b'"device_name": "\xc0\xaf', 1))
    corrupt("invalid-utf8-surrogate.json", good_text.encode().replace(b'"blas": "', b'"blas": "\xed\xa0\x80', 1))
    corrupt("invalid-utf8-cut.json", good_text.encode().replace(b'"dtype": "', b'"dtype": "\xe6\x97', 1))
    corrupt("invalid-utf8-latin1.json", good_text.replace('AMD EPYC', 'Caf\u00e9').encode("latin-1"))
    corrupt("lone-surrogate-escape.json", good_text.replace('"strategy": "none"', '"strategy": "\\ud800"', 1))

    # A run's strategy is parsed for its model when the file is read: text that is no strategy
    # (markup, other scripts, a kind the model cannot take) refuses the file.
    markup = ["<b>bold</b>", "</svg><svg onload=\"alert(1)\">", "a & b <![CDATA[x]]> ]]> &amp; <!-- c -->"]
    corrupt("markup-strategy.json", edited(lambda d: [r.update(strategy=n) for r, n in zip(d["runs"], markup)]))
    names = ["\u00fcber \u65e5\u672c \U0001F642", "\u202eright-to-left", "\u00a0\u2028\u200b"]
    corrupt("unicode-strategy.json", edited(lambda d: [r.update(strategy=n) for r, n in zip(d["runs"], names)]))
    corrupt("strategy-beyond-depth.json", edited(lambda d: run0(d).update(strategy="every:9")))

    # Loads: values a real file never has, but a file may hold.
    def markup_environment(d):
        d["environment"].update(device_name="<desc>&amp; </title>", libtorch_version="1.13 <i>",
                                blas="</svg>", created_utc="<x/>")
        run0(d).update(error=None)
    valid("markup-environment.json", edited(markup_environment))
    def unicode(d):
        # Shown text: what XML cannot hold is replaced on reading.
        d["environment"]["device_name"] = "nul\u0000 bell\u0007 \ufffe end"
        d["runs"][1]["error"] = "first line\nsecond\tline\u001b[31m"
    valid("unicode-text.json", edited(unicode))
    def nonfinite(d):
        d["runs"][0]["grad_check"].update(max_abs_diff="nan", passed=False)
        d["runs"][1]["grad_check"].update(max_abs_diff="inf", tolerance="inf", passed=False,
                                          note="Inf in 3 of 64 elements of block 1 ffn.up.weight")
        d["runs"][2]["metrics"].update(step_ms="nan", forward_ms="nan", step_samples_ms=["nan", 1.5])
        d["runs"][2]["prediction"].update(step_ms="inf")
    valid("nonfinite.json", edited(nonfinite))
    def extremes(d):
        r = run0(d)
        r["metrics"].update(peak_bytes=2**53, activation_bytes=0, step_ms=1e12, forward_ms=5e-324)
        r["breakdown"].update(parameters=2**53, input=2**53, other=2**53)
        r["timeline"]["delta"][0] = -2**53
        r["timeline"]["t_ms"][0] = -1e12
    valid("extremes.json", edited(extremes))
    valid("bom.json", "\ufeff" + good_text)
    valid("unknown-key-nesting-10000.json",
          good_text.replace('"cancelled": ', '"comment": ' + "[" * 10000 + "]" * 10000 + ', "cancelled": ', 1))
    valid("no-runs.json", edited(setter(["runs"], [])))
    def oldest(d):  # a file from before the optional keys
        d.pop("predicted_frontier")
        for r in d["runs"]:
            for key in ("prediction", "schedule", "forward_counts"):
                r.pop(key)
    valid("oldest-layout.json", edited(oldest))
    def newest(d):  # keys added alongside the memory limit and the NaN-aware gradient check
        d["notes"] = ["the \"vs optimal\" comparison was skipped: 600 units, more than 512"]
        r = d["runs"][0]
        r["config"]["memory_limit_mib"] = 0.03
        r["error"] = "out of memory: none needs 38600 bytes above a limit of 31457 bytes"
        r["out_of_memory"] = {"requested_bytes": 4096, "allocated_bytes": 35000,
                              "limit_bytes": 31457, "phase": "forward", "block": 2, "t_ms": 0.12}
    valid("newest-keys.json", edited(newest))
    def shard(d):  # one shard's file (--shard 1/2): the sweep, its share, each run's place
        d["shard"] = {"sweep_id": "0123456789abcdef", "index": 1, "count": 2, "work_items": 4,
                      "work_id": "fedcba9876543210"}
        for position, r in zip((0, 1, 3), d["runs"]):
            r["shard"] = {"position": position, "owned": position % 2 == 1}
    valid("shard.json", edited(shard))
    def merged(d):  # merged from 2 shards on two machines, with the other shard's none
        d["merged"] = {"sweep_id": "0123456789abcdef", "count": 3, "missing": [2]}
        other = copy.deepcopy(d["environment"])
        other.update(device_name="Other <CPU> \u00e9", created_utc="2026-12-02T10:00:00Z")
        d["machines"] = [copy.deepcopy(d["environment"]), other]
        for machine, r in zip((0, 1, 0), d["runs"]):
            r["machine"] = machine
        none = copy.deepcopy(d["runs"][0])
        none.update(machine=1, blocks=[], phases=[])
        for column in ("t_ms", "delta", "total", "phase", "block"):
            none["timeline"][column] = []
        d["machine_baselines"] = [none]
    valid("merged.json", edited(merged))
    corrupt("merged-machine-past-machines.json",
            edited(lambda d: (merged(d), d["runs"][1].update(machine=2))))
    corrupt("shard-and-merged.json", edited(lambda d: (shard(d), merged(d))))
    corrupt("shard-run-without-place.json", edited(lambda d: (shard(d), d["runs"][2].pop("shard"))))
    corrupt("shard-bad-sweep-id.json",
            edited(lambda d: (shard(d), d["shard"].update(sweep_id="not-hex-at-all!"))))
    def caching_allocator(d):  # the caching CPU allocator's keys, and a prediction of reserved
        r = with_trace(d)
        r["prediction"]["reserved_peak_bytes"] = 2097152
        r["allocator_trace"]["unlisted_blocks"] = 2
        d["runs"][1]["config"]["allocator"] = "system"  # never written (absent means it), read alike
        d["runs"][1]["metrics"]["minor_faults_per_step"] = 61.5
    valid("caching-allocator.json", edited(caching_allocator))
    def chain_ends(d):  # an embedding and an LM head (vocab): their labels, blocks -2 and -3
        r = with_trace(d)
        r["config"].update(vocab=64, tie_embeddings=True, loss_chunks=2)
        r["timeline"]["block"][0] = -2
        r["timeline"]["block"][-1] = -3
        r["phases"][0]["block"] = -2
        r["phases"][-1]["block"] = -3
        r["blocks"][0]["block"] = -2
        r["blocks"][-1]["block"] = -3
        r["allocator_trace"]["blocks"][0][7] = -3
        r["breakdown"]["logits"] = 4096
        r["error"] = "out of memory at backward of the LM head: tried to allocate 0.01 MiB"
        r["out_of_memory"] = {"requested_bytes": 8192, "allocated_bytes": 35000,
                              "limit_bytes": 31457, "phase": "backward", "block": -3, "t_ms": 0.12}
    valid("chain-ends.json", edited(chain_ends))
    # The ends' labels belong to a chain with ends only, and a lifetime always has a block.
    corrupt("ends-block-without-vocab.json",
            edited(lambda d: run0(d)["timeline"]["block"].__setitem__(0, -2)))
    corrupt("ends-phase-without-vocab.json", edited(lambda d: run0(d)["phases"][0].update(block=-3)))
    corrupt("ends-lifetime-without-block.json",
            edited(lambda d: (chain_ends(d), run0(d)["blocks"][0].update(block=-1))))


if __name__ == "__main__":
    main()
