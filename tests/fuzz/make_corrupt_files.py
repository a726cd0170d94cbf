#!/usr/bin/env python3
"""Writes the results files that are too big or too odd to check in, for the fuzz replays.

    make_corrupt_files.py OUT_DIR TEMPLATE.json

OUT_DIR/missing.json          must not exist (a missing file)
OUT_DIR/a-directory.json/     a folder where a file is expected
OUT_DIR/big-valid/            must load: 10,000 runs (the most a file may hold); a 200 MB
                              timeline
OUT_DIR/big-corrupt/          must be rejected quickly: 100,000 runs; 200 MB cut off; 200 MB
                              of binary; 200 MB inside one string

Files already there are kept (each is written to a temporary name and renamed when complete),
so a second run costs nothing; they are made again when this script or the template changes.
"""
import hashlib
import json
import os
import random
import shutil
import sys

MB = 1000 * 1000
BIG = 200 * MB


def write(path, produce):
    """Writes produce(file) to path unless it is there already."""
    if os.path.isfile(path):
        return
    tmp = path + ".tmp"
    with open(tmp, "wb") as out:
        produce(out)
    os.replace(tmp, path)


def results_text(template, runs_text):
    """The template's document with its runs replaced by runs_text (JSON text of a list)."""
    doc = dict(template)
    doc["runs"] = "@RUNS@"
    return json.dumps(doc).replace('"@RUNS@"', runs_text)


def big_timeline_run(template_run, target_bytes):
    """The template run with a timeline of about target_bytes, as (head, columns, tail) parts."""
    events = target_bytes // 25
    run = dict(template_run)
    run["timeline"] = "@TIMELINE@"
    head, tail = json.dumps(run).split('"@TIMELINE@"')
    depth = run["config"]["depth"]
    return head, tail, events, depth


def write_big_timeline(out, template, cut_at=None):
    """A valid results file with one run whose timeline is about 200 MB (cut short if cut_at)."""
    head, tail, events, depth = big_timeline_run(template["runs"][0], BIG)
    prefix, suffix = results_text(template, "[@RUN@]").split("@RUN@")
    rng = random.Random(8)
    written = 0

    def emit(text):
        nonlocal written
        data = text.encode()
        if cut_at is not None and written + len(data) > cut_at:
            data = data[: cut_at - written]
        out.write(data)
        written += len(data)
        return cut_at is None or written < cut_at

    emit(prefix + head + '{"phase_codes":["idle","forward","loss","recompute","backward",'
         '"optimizer"]')
    chunk = 100000
    columns = {
        "t_ms": lambda i: "%.6f" % (i * 0.001),
        "delta": lambda i: str(4096 if i % 2 == 0 else -4096),
        "total": lambda i: str(4096 if i % 2 == 0 else 0),
        "phase": lambda i: str(1 + i % 5),
        "block": lambda i: str(rng.randrange(-1, depth)),
    }
    for name, value in columns.items():
        if not emit(',"%s":[' % name):
            return
        for start in range(0, events, chunk):
            part = ",".join(value(i) for i in range(start, min(events, start + chunk)))
            if not emit(("," if start else "") + part):
                return
        if not emit("]"):
            return
    emit("}" + tail + suffix)


def write_many_runs(out, template, count):
    run = dict(template["runs"][0])
    run["timeline"] = {"phase_codes": ["idle"], "t_ms": [], "delta": [], "total": [],
                       "phase": [], "block": []}
    run["blocks"] = []
    run["phases"] = []
    runs = "[" + ",".join([json.dumps(run)] * count) + "]"
    out.write(results_text(template, runs).encode())


def main():
    out_dir, template_path = sys.argv[1], sys.argv[2]
    with open(template_path, encoding="utf-8") as f:
        template = json.load(f)

    os.makedirs(out_dir, exist_ok=True)
    digest = hashlib.sha256()
    for path in (__file__, template_path):
        with open(path, "rb") as f:
            digest.update(f.read())
    stamp_path = os.path.join(out_dir, "stamp")
    stamp = open(stamp_path).read() if os.path.isfile(stamp_path) else ""
    if stamp != digest.hexdigest():
        for name in ("big-valid", "big-corrupt"):
            shutil.rmtree(os.path.join(out_dir, name), ignore_errors=True)
    missing = os.path.join(out_dir, "missing.json")
    if os.path.isdir(missing):
        shutil.rmtree(missing)
    elif os.path.exists(missing):
        os.remove(missing)
    os.makedirs(os.path.join(out_dir, "a-directory.json"), exist_ok=True)

    valid = os.path.join(out_dir, "big-valid")
    corrupt = os.path.join(out_dir, "big-corrupt")
    os.makedirs(valid, exist_ok=True)
    os.makedirs(corrupt, exist_ok=True)

    write(os.path.join(valid, "runs-10000.json"),
          lambda out: write_many_runs(out, template, 10000))
    write(os.path.join(corrupt, "runs-100000.json"),
          lambda out: write_many_runs(out, template, 100000))
    write(os.path.join(valid, "timeline-200mb.json"),
          lambda out: write_big_timeline(out, template))
    write(os.path.join(corrupt, "timeline-200mb-truncated.json"),
          lambda out: write_big_timeline(out, template, cut_at=BIG - 1000))

    def binary(out):
        rng = random.Random(200)
        block = bytes(rng.getrandbits(8) for _ in range(1 << 16))
        for _ in range(BIG // len(block)):
            out.write(block)
    write(os.path.join(corrupt, "binary-200mb.bin"), binary)

    def one_string(out):
        out.write(b'{"schema": "ckptlab.results/1", "environment": "')
        block = b"x" * (1 << 20)
        for _ in range(BIG // len(block)):
            out.write(block)
        out.write(b'"}')
    write(os.path.join(corrupt, "string-200mb.json"), one_string)
    with open(stamp_path, "w") as f:
        f.write(digest.hexdigest())


if __name__ == "__main__":
    main()
