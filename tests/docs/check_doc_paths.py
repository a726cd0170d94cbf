#!/usr/bin/env python3
"""Every repository path the Markdown files mention exists.

Checks, in every *.md outside build folders, the words inside `code` spans and the targets of
links: a path that starts at the repository's top (core/..., bench/..., ckptlab.sh) or at the
Markdown file's own folder (./x, ../x, or a first folder that exists beside the file) must
exist; {a,b} alternatives and * globs are expanded, a :LINE suffix is dropped. A link's
#anchor must name a heading of the page it points to (GitHub's slugs). A bare source
file name (predict.cpp, flops.h) must name a file somewhere in the tree. Not checked: output
paths of examples (charts/, results.json), build outputs (build/...), paths outside the tree
(/usr/..., ATen/), a file a recipe creates ("a new `ui/charts/x_chart.cpp`") and the paths
listed in doc_paths_ignore.txt beside this script (a folder a script has not written yet).
Prints each missing path with the file and line that names it; exit 1 if any.

    check_doc_paths.py REPO_ROOT
"""
import glob
import os
import re
import sys

SOURCE_SUFFIXES = (".cpp", ".h", ".sh", ".py")
SKIPPED_DIRS = {".git", "build", "node_modules"}
CODE_SPAN = re.compile(r"`([^`\n]+)`")
LINK_TARGET = re.compile(r"\]\(([^)\s]+)\)")
BRACES = re.compile(r"^(.*)\{([^{}]*)\}(.*)$")


def markdown_files(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("build")]
        for name in files:
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def source_names(root):
    names = set()
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("build")]
        names.update(files)
    return names


def expand(word):
    match = BRACES.match(word)
    if not match:
        return [word]
    head, options, tail = match.groups()
    return [w for option in options.split(",") for w in expand(head + option + tail)]


def exists(path):
    return bool(glob.glob(path)) if "*" in path else os.path.exists(path)


def candidates(line, previous=""):
    """(word, is_link) for each word of a code span and each link target on the line."""
    for span in CODE_SPAN.finditer(line):
        before = previous.rstrip() + " " + line[: span.start()]  # "a new" may end the last line
        if re.search(r"\bnew\s*$", before, re.IGNORECASE):
            continue  # a file the text tells you to create
        for word in span.group(1).split():
            yield word, False
    for target in LINK_TARGET.findall(line):
        yield target, True


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors_of(path):
    found, fenced = set(), False
    with open(path, encoding="utf-8") as text:
        for line in text:
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and re.match(r"#{1,6} ", line):
                found.add(slug(line.lstrip("#")))
    return found


def ignored_paths():
    listing = os.path.join(os.path.dirname(os.path.abspath(__file__)), "doc_paths_ignore.txt")
    with open(listing, encoding="utf-8") as text:
        return {line.split("#", 1)[0].strip() for line in text} - {""}


def cleaned(word):
    word = word.split("#", 1)[0].lstrip("\"'(").rstrip("\"'(),;:.")
    word = word.split("=", 1)[-1]  # --pdf=x.pdf, VAR=path
    word = re.sub(r":\d+(-\d+)?$", "", word)  # file.cpp:138
    if not word or "://" in word or word.startswith("...") or any(c in word for c in "<>$…%@"):
        return ""
    return word


class Checker:
    def __init__(self, root):
        self.root = root
        self.top = set(os.listdir(root))
        self.names = source_names(root)
        self.ignored = ignored_paths()
        self.checked = 0
        self.missing = 0
        self.doc = ""  # the file being read, for links to its own headings

    def base_of(self, word, here, is_link):
        """The folder a path is relative to, or None when it is not the tree's."""
        first = word.split("/", 1)[0]
        if word.startswith("/") or first == "build" or first.startswith("mailto"):
            return None
        if is_link or word.startswith(("./", "../")) or os.path.isdir(os.path.join(here, first)):
            return here
        return self.root if first in self.top else None

    def report(self, where, problem):
        self.missing += 1
        print(f"{where}: {problem}")

    def check_anchor(self, target, here, where):
        page, anchor = target.split("#", 1)
        path = os.path.normpath(os.path.join(here, page)) if page else self.doc
        if "://" in page or not path.endswith(".md") or not os.path.isfile(path):
            return
        self.checked += 1
        if anchor not in anchors_of(path):
            self.report(where, f"no heading #{anchor} in {os.path.relpath(path, self.root)}")

    def check_word(self, word, is_link, here, where):
        if "/" in word or is_link:
            base = self.base_of(word, here, is_link)
            if base is None:
                return
            self.checked += 1
            # A command in a code span (`./ckptlab.sh test`) runs from the top of the tree.
            bases = [base] if is_link else [base, self.root]
            for alternative in expand(word):
                paths = [os.path.normpath(os.path.join(b, alternative)) for b in bases]
                relative = os.path.relpath(paths[0], self.root)
                if not any(exists(p) for p in paths) and relative not in self.ignored:
                    self.report(where, f"{relative} does not exist")
        elif word.endswith(SOURCE_SUFFIXES) and re.fullmatch(r"[\w.+-]+", word):
            self.checked += 1
            for name in expand(word):
                if name not in self.names and name not in self.top:
                    self.report(where, f"no file named {name} in the tree")

    def check_file(self, doc):
        self.doc = doc
        here = os.path.dirname(doc)
        relative = os.path.relpath(doc, self.root)
        previous = ""
        with open(doc, encoding="utf-8") as text:
            for number, line in enumerate(text, 1):
                for word, is_link in candidates(line, previous):
                    if is_link and "#" in word:
                        self.check_anchor(word, here, f"{relative}:{number}")
                    word = cleaned(word)
                    if word:
                        self.check_word(word, is_link, here, f"{relative}:{number}")
                previous = line


def main():
    checker = Checker(os.path.abspath(sys.argv[1]))
    for doc in sorted(markdown_files(checker.root)):
        checker.check_file(doc)
    if checker.missing:
        print(f"doc paths: {checker.missing} missing of {checker.checked} checked")
        return 1
    print(f"doc paths ok: {checker.checked} paths checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
