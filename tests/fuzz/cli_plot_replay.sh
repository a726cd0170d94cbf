#!/usr/bin/env bash
# Results files through `ckptlab-cli plot FILE --svg DIR`, as a user would open them.
#
#   cli_plot_replay.sh CLI DATA_DIR GENERATED_DIR OUT_DIR [files|refused|markup]
#
# files (default): every corrupt file (DATA_DIR/corrupt, a missing file, a folder, the big
# generated ones) must exit 2 with exactly one line on stderr that names the file, write
# nothing, and do so within 3 s of CPU (the generated 200 MB ones within 5). Every file of the
# fuzz corpus (DATA_DIR/corpus, one file in six) must do the same or plot; DATA_DIR/valid files other than
# markup-* must plot. A plot must exit 0 within 20 s of CPU and write SVG that is well-formed XML.
#
# refused: only the corrupt files (a build without the GUI cannot plot).
#
# Limits are multiplied by $CKPTLAB_TIME_SCALE (ctest sets 10 for sanitizer and debug builds).
#
# markup: DATA_DIR/valid/markup-* (run names and environment strings such as "<b>", "</svg>",
# "&") must plot to SVG that is well-formed and holds none of that markup as elements.
set -u
shopt -s nullglob
cli=$1
data=$2
generated=$3
out=$4
mode=${5:-files}

failures=0
checked=0
scale=${CKPTLAB_TIME_SCALE:-1}
# Limits are on the command's CPU time (user and system), not the wall clock, which a loaded
# machine stretches at will. A refusal takes under 1 s of CPU (mostly LibTorch's start-up).
refuse_ms=3000
rm -rf "$out"
mkdir -p "$out"
# Qt warns on stderr without a runtime folder; give it one so the output is the program's own.
export XDG_RUNTIME_DIR="$out/runtime"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
export QT_QPA_PLATFORM=offscreen

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# Runs plot on FILE into a fresh folder; sets code, err, ms (its CPU time) and dir.
plot() {
    local file=$1 TIMEFORMAT='%3U %3S'
    checked=$((checked + 1))
    dir="$out/plot-$checked"
    { time "$cli" plot "$file" --svg "$dir" > /dev/null 2> "$out/err.txt"; } 2> "$out/time.txt"
    code=$?
    err=$(cat "$out/err.txt")
    ms=$(awk '{gsub(",", "."); printf "%d", ($1 + $2) * 1000}' "$out/time.txt")  # any locale
}

# Checks that plot refused FILE: exit 2, one printable line naming it, nothing written, within
# LIMIT ms of CPU.
check_refused() {
    local file=$1 limit=$2
    local lines
    lines=$(printf '%s' "$err" | grep -c '')
    if [[ $code -ne 2 ]]; then
        fail "$file: exit $code, wanted 2; stderr: $err"
    elif [[ $lines -ne 1 ]]; then
        fail "$file: $lines lines on stderr, wanted 1: $err"
    elif ! grep -qF -- "$file" <<<"$err"; then
        fail "$file: the message does not name the file: $err"
    elif LC_ALL=C grep -q '[[:cntrl:]]' <<<"$err"; then
        fail "$file: control characters in the message: $(printf '%q' "$err")"
    elif [[ -e $dir ]]; then
        fail "$file: refused, but wrote into $dir"
    elif [[ $ms -gt $limit ]]; then
        fail "$file: took $ms ms of CPU, over $limit ms"
    fi
}

# Checks that every SVG in a folder is well-formed XML and has no element from the file's text.
check_svgs() {
    local file=$1
    local problems
    problems=$(python3 - "$dir" <<'EOF'
import os, sys, xml.etree.ElementTree as ET
folder = sys.argv[1]
names = sorted(n for n in os.listdir(folder) if n.endswith(".svg")) if os.path.isdir(folder) else []
if len(names) < 4:
    print("only %d SVG files written" % len(names))
svg_elements = {"svg", "g", "path", "rect", "text", "title", "desc", "defs", "linearGradient",
                "radialGradient", "stop", "image", "polyline", "polygon", "line", "circle",
                "ellipse", "clipPath", "use", "tspan"}
for name in names:
    try:
        root = ET.parse(os.path.join(folder, name)).getroot()
    except ET.ParseError as e:
        print("%s is not well-formed XML: %s" % (name, e))
        continue
    for element in root.iter():
        tag = element.tag.split("}")[-1]
        if tag not in svg_elements:
            print("%s holds an element <%s> that came from the file's text" % (name, tag))
            break
EOF
)
    if [[ -n $problems ]]; then
        fail "$file: $(tr '\n' ';' <<<"$problems")"
    fi
}

check_plotted() {
    local file=$1
    if [[ $code -ne 0 ]]; then
        fail "$file: exit $code, wanted 0; stderr: $err"
    elif [[ $ms -gt $((20000 * scale)) ]]; then
        fail "$file: plotting took $ms ms of CPU, over $((20000 * scale)) ms"
    else
        check_svgs "$file"
    fi
    rm -rf "$dir"
}

refused=0
plotted=0
if [[ $mode == markup ]]; then
    for file in "$data"/valid/markup-*; do
        plot "$file"
        check_plotted "$file"
        plotted=$((plotted + 1))
    done
else
    for file in "$data"/corrupt/* "$generated/missing.json" "$generated/a-directory.json"; do
        plot "$file"
        check_refused "$file" $((refuse_ms * scale))
        refused=$((refused + 1))
    done
    for file in "$generated"/big-corrupt/*; do
        plot "$file"
        check_refused "$file" $((5000 * scale))
        refused=$((refused + 1))
    done
    # Every corpus file goes through the loader in-process (results_fuzz_replay); here a fixed
    # sample of one in six keeps the CLI's 0.3 s start-up per file within the suite's minutes.
    data_corpus=()
    if [[ $mode != refused ]]; then
        index=0
        for file in "$data"/corpus/*; do
            (( index++ % 6 == 0 )) && data_corpus+=("$file")
        done
    fi
    for file in "${data_corpus[@]}"; do
        plot "$file"
        if [[ $code -eq 0 ]]; then
            check_plotted "$file"
            plotted=$((plotted + 1))
        else
            check_refused "$file" $((refuse_ms * scale))
            refused=$((refused + 1))
        fi
    done
    [[ $mode == refused ]] && data_valid=() || data_valid=("$data"/valid/*)
    for file in "${data_valid[@]}"; do
        [[ $(basename "$file") == markup-* ]] && continue
        plot "$file"
        check_plotted "$file"
        plotted=$((plotted + 1))
    done
fi

echo "$checked files: $refused refused, $plotted plotted, $failures failures"
[[ $failures -eq 0 && $checked -gt 0 ]]
