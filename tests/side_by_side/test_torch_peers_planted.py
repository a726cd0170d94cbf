"""The side-by-side checks fail when they should: planted differences, each named in the output.

Runs ckptlab-cli once on test_torch_peers.py's ffn chain (none, full, every:2), then
test_torch_peers.py --results on copies of that results file:
  - unchanged: passes;
  - full's peak one block output (B·S·d float32 bytes) higher: fails, naming full;
  - none's peak 4 bytes higher, and 4 bytes lower: fails, naming none (equality both ways);
  - unchanged, with CKPTLAB_PEER_PLANT=every:2+<one block output>: fails, naming every:2;
and the verdict's rules for torch 1.13's nested checkpoints on made-up numbers: a known
difference that changed, a difference that is not whole RNG states or more of them than levels;
and the kinds check: the ffn list without revolve fails it, naming revolve.

    test_torch_peers_planted.py --cli build/release/app/ckptlab-cli [--build-dir DIR]

Exit 0 when every case comes out as expected, 1 otherwise, 77 without torch.
"""
import argparse
import contextlib
import io
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import test_torch_peers  # noqa: E402
import torch_chains  # noqa: E402

STRATEGIES = ["none", "full", "every:2"]


def planted_copy(original, folder, name, strategy, delta):
    """A copy of the results file with `delta` bytes added to `strategy`'s peak."""
    with open(original) as f:
        data = json.load(f)
    for run in data["runs"]:
        if run["strategy"] == strategy:
            run["metrics"]["peak_bytes"] += delta
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        json.dump(data, f)
    return path


def check(args, results, expect_fail, named=None, plant=None):
    """Runs the checker on a results file (its main, in this process: torch loads once);
    returns a problem, or None when it came out as expected (failing with a FAIL line that
    names `named`, or passing)."""
    os.environ.pop("CKPTLAB_PEER_PLANT", None)
    if plant:
        os.environ["CKPTLAB_PEER_PLANT"] = plant
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = test_torch_peers.main(["--results", results, "--build-dir", args.build_dir])
    os.environ.pop("CKPTLAB_PEER_PLANT", None)
    fails = [line for line in out.getvalue().splitlines() if line.startswith("FAIL ")]
    what = os.path.basename(results) + (f" with CKPTLAB_PEER_PLANT={plant}" if plant else "")
    print(f"--- {what}: exit {status}")
    print("\n".join(fails) if fails else "(no FAIL line)")
    if not expect_fail:
        return None if status == 0 else f"{what}: exit {status}, expected 0"
    if status != 1:
        return f"{what}: exit {status}, expected 1"
    if not any(line.startswith(f"FAIL {named}: ") for line in fails):
        return f"{what}: no FAIL line names {named}"
    if len(fails) != 1:
        return f"{what}: {len(fails)} FAIL lines, expected only {named}'s"
    return None


def rule_problems():
    """The verdict's torch-version rules on made-up numbers: (ok expected, arguments)."""
    verdict = test_torch_peers.verdict
    cases = [
        (True, ("revolve:1", 1_020_224, 1_000_000, ("exact", 20_224))),
        (False, ("revolve:1", 1_000_000, 1_000_000, ("exact", 20_224))),  # the known one moved
        (True, ("optimal:2", 1_010_112, 1_000_000, ("states", 5_056, 2))),
        (False, ("optimal:2", 1_015_168, 1_000_000, ("states", 5_056, 2))),  # 3 states > 2
        (False, ("optimal:2", 1_005_057, 1_000_000, ("states", 5_056, 2))),  # not whole states
        (False, ("none", 1_000_000, 1_005_056, ("states", 5_056, 2))),  # none: always equal
    ]
    problems = []
    for expected, arguments in cases:
        ok, text = verdict(*arguments)
        print(f"--- verdict{arguments}: {'ok' if ok else 'fails'}: {text}")
        if ok != expected:
            problems.append(f"verdict{arguments} is {ok}, expected {expected}")
    return problems


def coverage_problems(cli):
    """A chain list without revolve must fail the kinds check, naming revolve; the real lists
    pass it."""
    problems = []
    for block, chain in test_torch_peers.CHAINS.items():
        found = test_torch_peers.missing_kinds(cli, block, chain["strategies"])
        problems += [f"CHAINS[{block!r}]: {problem}" for problem in found]
    without = [s for s in test_torch_peers.CHAINS["ffn"]["strategies"]
               if not s.startswith("revolve")]
    found = test_torch_peers.missing_kinds(cli, "ffn", without)
    print(f"--- the ffn list without revolve: {found}")
    if len(found) != 1 or not found[0].startswith("revolve: "):
        problems.append(f"the ffn list without revolve: {found}, expected revolve's problem")
    return problems


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cli", required=True)
    p.add_argument("--build-dir", default=os.path.join(tempfile.gettempdir(),
                                                       "ckptlab_torch_peers"))
    args = p.parse_args()
    if torch_chains.import_torch() is None:
        print(f"{sys.executable} has no torch (Debian: apt install python3-torch): "
              + ("fails, CKPTLAB_REQUIRE_TORCH=1" if test_torch_peers.torch_required()
                 else "skipped"))
        return test_torch_peers.SKIP if not test_torch_peers.torch_required() else 1

    config = test_torch_peers.CHAINS["ffn"]["config"]
    output = config["batch"] * config["seq"] * config["width"] * 4  # one block output, float32
    with tempfile.TemporaryDirectory() as tmp:
        original = os.path.join(tmp, "unchanged.json")
        status, stderr = torch_chains.run_cli(args.cli, config, STRATEGIES, original)
        if status != 0:
            print(f"ckptlab-cli failed (exit {status}):\n{stderr}")
            return 1
        cases = [
            (original, False, None, None),
            (planted_copy(original, tmp, "full_one_output_higher.json", "full", output), True,
             "full", None),
            (planted_copy(original, tmp, "none_4_bytes_higher.json", "none", 4), True, "none",
             None),
            (planted_copy(original, tmp, "none_4_bytes_lower.json", "none", -4), True, "none",
             None),
            (original, True, "every:2", f"every:2+{output}"),
        ]
        problems = [problem for case in cases if (problem := check(args, *case))]
    problems += rule_problems() + coverage_problems(args.cli)
    for problem in problems:
        print("PROBLEM " + problem)
    print("every planted difference failed the check, naming its strategy" if not problems
          else f"{len(problems)} case(s) did not come out as expected")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
