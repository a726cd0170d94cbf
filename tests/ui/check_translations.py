#!/usr/bin/env python3
"""Fails when translations/*.ts and the sources of ui/ disagree: a message unfinished, empty,
obsolete or vanished; a tr() string of the sources missing from the .ts (found by running
lupdate into a temporary copy); or a translation whose %1..%9 arguments (and %n for plurals)
differ from its source's.

  check_translations.py LUPDATE SOURCE_ROOT
"""
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

FILES = {"ckptlab_zh_CN.ts": [], "ckptlab_en.ts": ["-pluralonly"]}


def messages(path):
    found = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            key = (name, message.findtext("source"), message.findtext("comment"))
            found[key] = message
    return found


def args(text):
    return sorted(re.findall(r"%(?:[1-9]|n)", text or ""))


def check_file(lupdate, root, name, options, problems):
    ts = root / "translations" / name
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / name
        shutil.copy(ts, copy)
        subprocess.run([lupdate, "-silent", "-locations", "none", "-no-obsolete", *options,
                        str(root / "ui"), "-ts", str(copy)], check=True)
        fresh = messages(copy)
    stored = messages(ts)
    where = f"translations/{name}"
    for key in sorted(set(fresh) - set(stored), key=str):
        problems.append(f"{where}: missing (run the ckptlab_lupdate target): {key[0]}: {key[1]!r}")
    for key in sorted(set(stored) - set(fresh), key=str):
        problems.append(f"{where}: no longer in the sources (run ckptlab_lupdate): "
                        f"{key[0]}: {key[1]!r}")
    for (context, source, _), message in stored.items():
        translation = message.find("translation")
        kind = translation.get("type")
        label = f"{where}: {context}: {source!r}"
        if kind in ("unfinished", "obsolete", "vanished"):
            problems.append(f"{label}: {kind}")
            continue
        if message.get("numerus") == "yes":
            forms = [f.text or "" for f in translation.iter("numerusform")]
            if not forms or any(not f.strip() for f in forms):
                problems.append(f"{label}: empty plural form")
            for form in forms:
                if args(form) != args(source):
                    problems.append(f"{label}: arguments {args(form)} in {form!r}, "
                                    f"source has {args(source)}")
        else:
            text = translation.text or ""
            if not text.strip():
                problems.append(f"{label}: empty translation")
            elif args(text) != args(source):
                problems.append(f"{label}: arguments {args(text)} in {text!r}, "
                                f"source has {args(source)}")
    return len(stored)


def main():
    lupdate, root = sys.argv[1], Path(sys.argv[2])
    problems = []
    for name, options in FILES.items():
        count = check_file(lupdate, root, name, options, problems)
        print(f"{name}: {count} messages")
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s); see docs/ARCHITECTURE.md, \"Translations\"")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
