#!/usr/bin/env bash
# The test suite under decimal-comma locales, as a German or French user runs the app: Qt's
# setlocale(LC_ALL, "") then makes printf and strtod write and expect "1,5". Generates each
# locale with localedef when it is missing (root; the locale sources are in package
# `locales`), then runs ctest with LANG and LC_ALL set to it.
#
#   tests/locale/run_suite_in_locale.sh [--preset NAME] [--grouped] [LOCALE...] [-- CTEST_ARGS...]
#
# --grouped runs each GoogleTest binary once (tests/run_suite_grouped.py) instead of ctest's
# one process per case: the same tests, minutes sooner; it takes no CTEST_ARGS.
#
# Defaults: preset release, locales de_DE.UTF-8 and fr_FR.UTF-8. Example, one locale and two
# tests: tests/locale/run_suite_in_locale.sh de_DE.UTF-8 -- -R 'test_plan_and_predict|number'
set -euo pipefail
cd "$(dirname "$0")/../.."

preset=release
grouped=false
locales=()
ctest_args=()
while [[ $# -gt 0 ]]; do
    case $1 in
    --preset) preset=$2; shift 2 ;;
    --grouped) grouped=true; shift ;;
    --) shift; ctest_args=("$@"); break ;;
    -*) echo "usage: $0 [--preset NAME] [--grouped] [LOCALE...] [-- CTEST_ARGS...]" >&2; exit 2 ;;
    *) locales+=("$1"); shift ;;
    esac
done
[[ ${#locales[@]} -eq 0 ]] && locales=(de_DE.UTF-8 fr_FR.UTF-8)

# "de_DE.UTF-8" is listed by `locale -a` as "de_DE.utf8".
installed() {
    local want
    want=$(echo "$1" | tr 'A-Z' 'a-z' | tr -d '-')
    locale -a 2>/dev/null | tr 'A-Z' 'a-z' | tr -d '-' | grep -qxF "$want"
}

generate() {
    local name=$1 source=${1%%.*} charset=${1#*.}
    [[ $charset == "$name" ]] && charset=UTF-8
    if [[ ! -e /usr/share/i18n/locales/$source ]]; then
        echo "run_suite_in_locale: no locale source for $source; install package locales" >&2
        return 1
    fi
    if [[ $(id -u) -ne 0 ]]; then
        echo "run_suite_in_locale: $name is missing; generate it as root:" \
            "localedef -i $source -f $charset $name" >&2
        return 1
    fi
    echo "run_suite_in_locale: generating $name"
    localedef -i "$source" -f "$charset" "$name"
}

status=0
for name in "${locales[@]}"; do
    installed "$name" || generate "$name"
    if ! installed "$name"; then
        echo "run_suite_in_locale: $name is still not available" >&2
        exit 1
    fi
    echo "run_suite_in_locale: ctest under LANG=LC_ALL=$name"
    start=$(date +%s)
    if $grouped; then
        suite=(python3 tests/run_suite_grouped.py --preset "$preset")
    else
        suite=(ctest --preset "$preset" "${ctest_args[@]}")
    fi
    if LANG=$name LC_ALL=$name "${suite[@]}"; then
        echo "run_suite_in_locale: $name passed in $(($(date +%s) - start)) s"
    else
        echo "run_suite_in_locale: $name FAILED" >&2
        status=1
    fi
done
exit $status
