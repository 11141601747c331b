#!/bin/bash
# The class of issue 31's acceptance run, graded end to end on a GPU machine:
#   tests/grading/class-demo.sh [OUT]        (from the workbook's root; default OUT=build/class-demo)
# Twelve students of chapter 1 as a Canvas "Download Submissions" folder (lastfirst_<id>_<attachment>_file)
# with a roster in Canvas's gradebook-export format: two independent solutions (anna, ben), a solution
# (carl) and its near-copy (dana: every name changed), one copy of the reference (eve), one student who
# handed in nothing (zed, roster only) and starters. The near-copies must be the one pair listed on
# class.html; eve appears under "like the reference solution".
set -euo pipefail
out=${1:-build/class-demo}
starter=chapters/01-reversal/reversal.cu
subs=$out-export
rm -rf "$out" "$subs" "$out-gen" && mkdir -p "$subs"

# the four students' own regions: tests/cases/01-reversal/class-demo/, each spliced into the starter
make -s build/case-gen >/dev/null
./build/case-gen class-demo "$out-gen" >/dev/null
i=9000
add() { # add ID LASTFIRST SOURCE(file or -)
  i=$((i + 1))
  local f="$subs/$2_$1_${i}_reversal.cu"
  if [ "$3" = - ]; then cp "$starter" "$f"; elif [ "$3" = reference ]; then cp solutions/01-reversal/reversal.cu "$f"; else cp "$out-gen/ch1/$3/chapters/01-reversal/reversal.cu" "$f"; fi
}
add 101 smithanna anna
add 102 jonesben ben
add 103 brookscarl carl
add 104 leedana dana
add 105 kimeve reference
for s in 106:nguyenfay 107:ortizgus 108:patelhal 109:quinnivy 110:rossjon 111:satoken; do add "${s%%:*}" "${s#*:}" -; done
{
  echo 'Student,ID,SIS User ID,SIS Login ID,Section'
  echo '"Smith, Anna",101,S101,asmith,A'; echo '"Jones, Ben",102,S102,bjones,A'; echo '"Brooks, Carl",103,S103,cbrooks,B'
  echo '"Lee, Dana",104,S104,dlee,B'; echo '"Kim, Eve",105,S105,ekim,A'; echo '"Nguyen, Fay",106,S106,fnguyen,A'
  echo '"Ortiz, Gus",107,S107,gortiz,B'; echo '"Patel, Hal",108,S108,hpatel,A'; echo '"Quinn, Ivy",109,S109,iquinn,B'
  echo '"Ross, Jon",110,S110,jross,A'; echo '"Sato, Ken",111,S111,ksato,B'; echo '"Zed, Zoe",112,S112,zzed,A'
} > "$out-roster.csv"
echo "class: $(ls "$subs" | wc -l) submissions in $subs, roster $out-roster.csv (12 students)"
make grade-class SUBS="$subs" ROSTER="$out-roster.csv" OUT="$out" CH=1 ASSIGNMENT="Workbook chapter 1" ${JOBS:+JOBS=$JOBS} ${GRADE_FLAGS:+GRADE_FLAGS="$GRADE_FLAGS"}
echo "--- grades.csv"; cat "$out/grades.csv"
echo "--- canvas-grades.csv"; cat "$out/canvas-grades.csv"
echo "--- similarity pairs (chapter 1)"
jq -r '.chapters[] | "compared \(.compared); pairs: " + ([.pairs[] | "\(.a) ~ \(.b) \(.percent)%"] | join(", ")) + "; like the reference: " + ([.reference[] | "\(.student) \(.percent)%"] | join(", "))' "$out/similarity.json" 2>/dev/null || cat "$out/similarity.json"
if command -v chromium >/dev/null; then
  for p in class.html smithanna_101/feedback.html; do
    HOME=$PWD/$out timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
      --user-data-dir="$PWD/$out/.chrome" --window-size=1100,2400 --screenshot="$PWD/$out/${p//\//_}.png" "file://$PWD/$out/$p" 2>/dev/null || true
  done
  rm -rf "$out/.chrome"; ls "$out"/*.png
fi
