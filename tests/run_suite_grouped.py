#!/usr/bin/env python3
"""A test preset's suite with each GoogleTest binary started once instead of once per test.

ctest runs every GoogleTest case in a process of its own (gtest_discover_tests), and a process
that links LibTorch takes most of a second to start, more under AddressSanitizer: of the release
suite's 540 tests, 500 are such cases, and their starts cost more than their checks. The
README's test command (`./ckptlab.sh test`) and CI's other runs of the suite (the CUDA flavour,
the sanitizer build) take the same tests, as the preset filters them, in one process per
binary; `ctest --preset NAME` still runs one case per process.

    tests/run_suite_grouped.py --preset NAME [--jobs N] [--binaries REGEX]

--binaries keeps the GoogleTest binaries whose names match (and runs no other test), to try a
few: --binaries 'test_config_fields|test_flops'.

The tests that are not GoogleTest cases run through ctest itself (`-R` naming them). Exits 1
when a test fails, naming it; each failing binary's output is printed.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

# A binary's limit: its cases' limits summed, but never past this (a hang still ends).
MAX_BINARY_SECONDS = 1800


def preset_tests(preset):
    listing = subprocess.run(["ctest", "--preset", preset, "-N", "--show-only=json-v1"],
                             check=True, capture_output=True, text=True).stdout
    return json.loads(listing)["tests"]


def preset_environment(preset):
    """The test preset's `environment` (ASAN_OPTIONS under asan), its parents' under it: ctest
    sets it for the tests it runs, and so must a binary started here."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "CMakePresets.json"), encoding="utf-8") as f:
        presets = {p["name"]: p for p in json.load(f).get("testPresets", [])}
    env, name = {}, preset
    chain = []
    while name:
        chain.append(presets[name])
        parent = presets[name].get("inherits")
        name = parent[0] if isinstance(parent, list) else parent
    for p in reversed(chain):
        for key, value in p.get("environment", {}).items():
            value = re.sub(r"\$env\{(\w+)\}", lambda m: os.environ.get(m.group(1), ""), value)
            env[key] = value.replace("${sourceDir}", root)
    return env


def properties(test):
    return {p["name"]: p["value"] for p in test.get("properties", [])}


def gtest_groups(tests):
    """{binary: {"names": [...], "env": {...}, "cwd": ..., "timeout": s}} and the other tests."""
    groups, others = {}, []
    for test in tests:
        command = test.get("command") or []
        filters = [a.split("=", 1)[1] for a in command[1:] if a.startswith("--gtest_filter=")]
        if not filters:
            others.append(test["name"])
            continue
        props = properties(test)
        env = dict(e.split("=", 1) for e in props.get("ENVIRONMENT", []))
        group = groups.setdefault(command[0], {"names": [], "filters": [], "env": env,
                                               "cwd": props.get("WORKING_DIRECTORY"),
                                               "timeout": 0})
        if env != group["env"]:
            sys.exit(f"run_suite_grouped: {test['name']} has another environment than the rest "
                     f"of {os.path.basename(command[0])}; run it by ctest instead")
        group["names"].append(test["name"])
        group["filters"].extend(filters)
        group["timeout"] = min(MAX_BINARY_SECONDS,
                               group["timeout"] + float(props.get("TIMEOUT", 300)))
    return groups, others


def run_binary(binary, group, preset_env):
    env = dict(os.environ, **preset_env, **group["env"])
    # The filter as a file would need gtest 1.13's --gtest_flagfile; the command line holds
    # the few hundred names of one binary.
    command = [binary, "--gtest_filter=" + ":".join(group["filters"])]
    start = time.monotonic()
    try:
        done = subprocess.run(command, cwd=group["cwd"], env=env, capture_output=True,
                              text=True, errors="replace", timeout=group["timeout"])
        output, code = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as e:
        output = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) \
            else (e.stdout or "")
        output += f"\n(timed out after {group['timeout']:.0f} s)"
        code = -1
    seconds = time.monotonic() - start
    failed = sorted(set(re.findall(r"^\[  FAILED  \] (\S+\.\S+)", output, re.M)))
    passed = len(re.findall(r"^\[       OK \] ", output, re.M))
    # A skipped case (GTEST_SKIP) counts as ctest counts it: not failed.
    passed += len(set(re.findall(r"^\[  SKIPPED \] (\S+\.\S+)", output, re.M)))
    return binary, code, seconds, passed, failed, output


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--binaries")
    args = parser.parse_args()

    groups, others = gtest_groups(preset_tests(args.preset))
    if args.binaries:
        groups = {b: g for b, g in groups.items()
                  if re.search(args.binaries, os.path.basename(b))}
        others = []
    cases = sum(len(g["names"]) for g in groups.values())
    print(f"run_suite_grouped: {cases} GoogleTest cases in {len(groups)} processes, "
          f"{len(others)} other tests through ctest", flush=True)
    status = 0
    if others:
        pattern = "^(" + "|".join(re.escape(name) for name in others) + ")$"
        status = subprocess.run(["ctest", "--preset", args.preset, "-R", pattern]).returncode

    bad = []
    # The slowest binaries first, so the last to finish is a short one.
    order = sorted(groups, key=lambda b: -len(groups[b]["names"]))
    preset_env = preset_environment(args.preset)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for binary, code, seconds, passed, failed, output in pool.map(
                lambda b: run_binary(b, groups[b], preset_env), order):
            name = os.path.basename(binary)
            expected = len(groups[binary]["names"])
            # Every case named must have passed: a crash midway leaves cases without a verdict.
            ok = code == 0 and passed == expected and not failed
            print(f"{'ok' if ok else 'FAILED'}: {name}, {passed} of {expected} passed or skipped "
                  f"in {seconds:.1f} s", flush=True)
            if not ok:
                bad.append((name, failed or [f"exit {code}"]))
                print(output[-12000:], flush=True)
    for name, failed in bad:
        print(f"run_suite_grouped: {name} failed: {', '.join(failed)}")
    if bad or status != 0:
        return 1
    print(f"run_suite_grouped: all {cases} cases and {len(others)} other tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
