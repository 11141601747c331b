#!/usr/bin/env bash
# dist-student.sh BUILD NAME — `make dist-student`: BUILD/NAME.tar.gz, the student release (mk/release.mk
# says what goes in). Run from the workbook's top folder. The release is assembled in BUILD/dist/NAME.
set -euo pipefail
if [ $# -ne 2 ]; then echo "usage: $0 BUILD NAME" >&2; exit 2; fi
build=$1 name=$2
dist=$build/dist/$name
die() { echo "dist-student: $*" >&2; exit 1; }

if [ ! -f release/README.md ] || [ ! -f release/allow-list ]; then
    die "release/README.md or release/allow-list is missing from this copy"
fi

# The candidates: the files git tracks, or in a copy without git every file outside build/ and .git/.
candidates() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ "$(git rev-parse --show-toplevel)" = "$(pwd -P)" ]; then
        git ls-files -z | tr '\0' '\n'
    else
        echo "dist-student: not a git checkout: listing the files with find (release/allow-list decides)" >&2
        find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sed 's|^\./||'
    fi
}

rm -rf "$build/dist"
mkdir -p "$dist"
# Each line of the allow-list, anchored to the whole path.
grep -Ev '^(#|$)' release/allow-list | sed 's/.*/^(&)$/' > "$build/dist/allow.re"
candidates | LC_ALL=C sort | { grep -E -f "$build/dist/allow.re" || true; } |
    while IFS= read -r f; do [ ! -f "$f" ] || printf '%s\n' "$f"; done |
    tar -cf - -T - | tar -xf - -C "$dist"
cp release/README.md "$dist/README.md"
for d in chapters/[0-9][0-9]-*/; do
    # A chapter folder whose program git does not track ships no starter: say which file to git add.
    if ! compgen -G "$dist/$d*.cu" >/dev/null; then
        untracked=$(git ls-files --others --exclude-standard -- "$d" 2>/dev/null | tr '\n' ' ')
        die "${d%/}: no tracked chapter program (${untracked:+untracked: ${untracked% }; }the release ships only the files" \
            "git tracks: git add the chapter's folder first)"
    fi
    pristine=$dist/grading/pristine/$(basename "$d")
    mkdir -p "$pristine"
    cp "$dist/$d"*.cu "$pristine/"
done
tar -C "$build/dist" -czf "$build/$name.tar.gz" "$name"
echo "$build/$name.tar.gz: $(tar -tzf "$build/$name.tar.gz" | grep -vc '/$') files (release/allow-list)"
