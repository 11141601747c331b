#!/usr/bin/env bash
# make new-chapter N=6 NAME=scan [WITH_MK=1]: a new chapter's scaffold, from the templates of scripts/new-chapter/
# (not in the student release). Writes solutions/NN-name/name.cu (a reference with one example variant and
# one TODO region carrying its starter's text as `//| ` lines, on the real harness), chapters/NN-name/
# chapter.json (its facts, the tests object included), chapters/NN-name/chapter.mk only with WITH_MK=1,
# handouts/chN.md (a skeleton the handout tests pass), then the starter chapters/NN-name/name.cu with the
# generator (make starters), and prints the checklist of what is left: the README's "A new chapter is a
# folder". Refuses, in one line and exit 2, a taken N, an N outside 1-99, a NAME not [a-z0-9-], a run
# outside the workbook's root; writes nothing then.
#   scripts/new-chapter.sh N NAME 0|1       1: chapter.mk too (WITH_MK=1)
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: make new-chapter N=1..99 NAME=lower-case-name [WITH_MK=1]  (scripts/new-chapter.sh N NAME 0|1)" >&2; exit 2; }
n=$1 name=$2 mk=$3
die() { echo "make new-chapter: $*" >&2; exit 2; }
tpl=scripts/new-chapter
[ -f mk/chapters.mk ] && [ -d chapters ] && [ -f README.md ] || die "run it from the workbook's root (where mk/ and chapters/ are), not $PWD"
[ -d solutions ] && [ -f $tpl/reference.cu ] || die "the course's own: this copy has no solutions/ or no $tpl/ (the student release)"
[[ $n =~ ^[1-9][0-9]?$ ]] || die "N='$n' is not a chapter number from 1 to 99 (no leading zero)"
[[ $name =~ ^[a-z0-9][a-z0-9-]*$ && ${#name} -le 40 ]] ||
  die "NAME='$name' is not a name of lower-case letters, digits and '-' (at most 40 characters, not starting with '-')"
[[ $mk =~ ^[01]$ ]] || die "WITH_MK='$mk' is 1 (write chapter.mk) or 0"
nn=$(printf %02d "$n")
for taken in chapters/"$nn"-* solutions/"$nn"-* handouts/ch"$n".md; do
  [ -e "$taken" ] && die "chapter $n is taken: $taken exists"
done

ch=chapters/$nn-$name sol=solutions/$nn-$name
# Everything written is removed again if a later step fails: no half chapter is left.
written=()
undo() { rm -rf "${written[@]}"; }
trap 'undo' ERR
fill() { # template destination
  written+=("$2")
  sed -e "s/@NN@/$nn/g; s/@N@/$n/g; s/@NAME@/$name/g" "$tpl/$1" > "$2"
}
mkdir "$ch" && written+=("$ch")
mkdir "$sol" && written+=("$sol")
fill reference.cu "$sol/$name.cu"
fill chapter.json "$ch/chapter.json"
[ "$mk" = 1 ] && fill chapter.mk "$ch/chapter.mk"
fill handout.md "handouts/ch$n.md"
# The starter is never written by hand: the generator makes it from the reference's `//| ` lines.
if ! out=$(make -s --no-print-directory starters 2>&1); then
  undo
  die "make starters failed, nothing kept: $(printf '%s' "$out" | tail -n1)"
fi
trap - ERR
[ -f "$ch/$name.cu" ] || { undo; die "make starters wrote no $ch/$name.cu"; }
echo "new chapter $n: $sol/$name.cu (the reference), $ch/$name.cu (its starter, from make starters), $ch/chapter.json$(
  [ "$mk" = 1 ] && printf ', %s' "$ch/chapter.mk"), handouts/ch$n.md"
echo "what is left (README.md, \"A new chapter is a folder\"):"
sed -n '/^## A new chapter is a folder/,/^## /p' README.md | sed -n '/^1\. /,$p' | sed '$d'
