#!/usr/bin/env bash
# Packs Debian's headless Chromium for a lent GPU machine that has no package registry and no GUI
# libraries, so that test_course renders its pages there too. Here, from the project root:
#   tests/browser/pack.sh            -> .chromium/part-1, .chromium/part-2, .chromium/SHA256 (ignored by git)
# Each part fits beside .device/ in one call's 64 MiB carry; the parts may travel in different calls to one
# warm machine. There, `source tests/browser/from-unpacked.sh` keeps each part it is handed and, once it has
# them all, unpacks them and puts a `chromium` on PATH.
# What is packed: chromium-headless-shell with the data files it reads from chromium-common, every shared
# library its ldd names here but the C and C++ runtimes (the lent machine has newer ones), and DejaVu fonts.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
exclude=$(git rev-parse --git-path info/exclude)
grep -qx '/.chromium/' "$exclude" 2>/dev/null || echo '/.chromium/' >> "$exclude"
bin=/usr/lib/chromium/chromium-headless-shell
if [ ! -x "$bin" ] || [ ! -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
  [ "$(id -u)" = 0 ] || { echo "pack.sh: needs chromium-headless-shell and fonts-dejavu-core installed (apt-get install them as root)" >&2; exit 1; }
  (apt-get update -qq && apt-get install -y -qq chromium-headless-shell fonts-dejavu-core) >/dev/null ||
    { echo "pack.sh: apt-get install chromium-headless-shell fonts-dejavu-core failed" >&2; exit 1; }
fi
missing=$(ldd "$bin" | grep 'not found' || true)
[ -z "$missing" ] || { echo "pack.sh: $bin lacks libraries here: $missing" >&2; exit 1; }
stage=$(mktemp -d "${TMPDIR:-/tmp}/wb-chromium-pack.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/chromium" "$stage/lib" "$stage/fonts"
for f in chromium-headless-shell headless_command_resources.pak headless_lib_data.pak headless_lib_strings.pak \
         icudtl.dat snapshot_blob.bin v8_context_snapshot.bin; do
  cp -L "/usr/lib/chromium/$f" "$stage/chromium/"
done
ldd "$bin" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
  case $(basename "$lib") in
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libgcc_s.so.*|libstdc++.so.*|ld-linux*) ;;
    *) cp -L "$lib" "$stage/lib/" ;;
  esac
done
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf \
   /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf "$stage/fonts/"
rm -rf .chromium && mkdir .chromium
tar cf - -C "$stage" chromium lib fonts | xz -T0 -9 > "$stage/pack.tar.xz"
split -n 2 --numeric-suffixes=1 -a 1 "$stage/pack.tar.xz" .chromium/part-
sha256sum < "$stage/pack.tar.xz" | cut -d' ' -f1 > .chromium/SHA256
echo "packed: $(du -h "$stage/pack.tar.xz" | cut -f1) in $(ls .chromium/part-* | wc -l) parts; carry .chromium/part-1 and .chromium/part-2 (one or both per call) with .device"
