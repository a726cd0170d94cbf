#!/usr/bin/env bash
# Ctrl+C stops a sweep at its next training step, counted in steps, not seconds: the sweep runs
# with its progress on a terminal, is stopped (SIGSTOP) in its timed rounds (or its warm-up),
# everything it printed so far is read, then it gets SIGINT and goes on (SIGCONT). At most the
# one step in flight may still end after that; the command exits 130 and its results file
# keeps only the complete rounds. A loop that does not look at the cancel flag shows as a second
# step printed after the signal, and the test stops there instead of waiting for the sweep.
set -eu
cli=$1
out=$2
python=${PYTHON:-python3}
rm -rf "$out" && mkdir -p "$out"

# Steps of a few tens of ms at one intra-op thread, many of them.
model=(--depth 8 --width 128 --seq 64 --batch 2 --threads 1)

"$python" - "$cli" "$out" "${model[@]}" <<'PY'
import json, os, pty, re, signal, subprocess, sys

cli, out, model = sys.argv[1], sys.argv[2], sys.argv[3:]


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def interrupt(label, args, at, step):
    """Runs `sweep args`, stops it once its progress shows `at`, sends SIGINT and lets it go
    on; returns the progress messages printed after the signal that match `step`."""
    master, slave = pty.openpty()
    json_path = os.path.join(out, label + ".json")
    # SIGINT as in a terminal: a test runner may start us with it ignored, which the CLI keeps.
    child = subprocess.Popen([cli, "sweep", *model, *args, "--json", json_path],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    os.close(slave)
    text = ""

    def read_more():
        nonlocal text
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the terminal's other end is closed, the command ended
            data = b""
        text += data.decode(errors="replace")
        return bool(data)

    # Progress lines overwrite each other: "\r\033[K[ 12%] message".
    def messages():
        return [m.strip() for m in re.split(r"\r\x1b\[K|\n", text) if m.strip()]

    while not any(re.search(at, m) for m in messages()):
        if not read_more():
            fail(f"{label}: ended before \"{at}\": {messages()[-3:]}")
    os.kill(child.pid, signal.SIGSTOP)
    _, status = os.waitpid(child.pid, os.WUNTRACED)  # stopped: it prints nothing more
    if not os.WIFSTOPPED(status):
        fail(f"{label}: ended before it could be stopped: {messages()[-3:]}")
    os.set_blocking(master, False)
    while True:
        try:
            if not read_more():
                break
        except BlockingIOError:
            break
    os.set_blocking(master, True)
    before = len(messages())
    os.kill(child.pid, signal.SIGINT)
    os.kill(child.pid, signal.SIGCONT)
    after = []
    while read_more():
        after = [m for m in messages()[before:] if re.search(step, m)]
        if len(after) > 1:
            child.kill()
            child.wait()
            fail(f"{label}: {len(after)} steps ended after SIGINT, at most the one in flight "
                 f"may: {after}")
    code = child.wait()
    os.close(master)
    if code != 130:
        fail(f"{label}: exit {code}, not 130: {messages()[-3:]}")
    if not any("interrupted" in m for m in messages()):
        fail(f"{label}: says nothing: {messages()[-3:]}")
    print(f"{label}: {len(after)} step(s) after SIGINT, exit 130")
    return json_path, messages()


# In the timed rounds, from round 3 of 200 on: the rounds stop within the step in flight.
path, printed = interrupt("rounds", ["--warmup", "1", "--repeats", "200"], r"timed step 3/200",
                          r"timed step \d+/200")
results = json.load(open(path))
timing = results["timing"]
# The last step printed, "NAME: timed step R/200", ended round R when NAME is the last run of a
# round, else round R is incomplete and dropped.
last = [m for m in printed if re.search(r"timed step \d+/200", m)][-1]
name, taken = re.fullmatch(r"\[\s*\d+%\] (.+): timed step (\d+)/200", last).groups()
complete = int(taken) - (name != results["runs"][-1]["strategy"])
if timing["stopped_by"] != "cancelled" or timing["rounds"] != complete:
    fail(f"rounds: the results' rounds are {timing}, not {complete} complete ones cancelled "
         f"(last step printed: {last})")
for run in results["runs"]:
    samples = run["metrics"]["step_samples_ms"]
    if len(samples) != timing["rounds"]:
        fail(f"rounds: {run['strategy']} kept {len(samples)} samples for {timing['rounds']} rounds")

# In the warm-up of the first strategy: no timed step follows, nothing is written.
interrupt("warm-up", ["--warmup", "100", "--repeats", "1"], r"warm-up 3/100",
          r"warm-up \d+/100|timed step")
if os.path.exists(os.path.join(out, "warm-up.json")):
    fail("warm-up: a results file was written before any run finished")
PY
echo "cli_interrupt_latency: ok"
