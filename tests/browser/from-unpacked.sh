#!/usr/bin/env bash
# Sourced on a lent GPU machine: keeps the parts of tests/browser/pack.sh's Chromium that this call carried
# (under /tmp/wb-chromium-parts, which outlives the call while the machine stays warm), unpacks them once
# all are there and their checksum matches, and puts a `chromium` on PATH that runs the headless shell
# with its own libraries and fonts. Until then it says which parts are still missing and changes nothing.
#   source tests/browser/from-unpacked.sh
_wbc=/tmp/wb-chromium
mkdir -p "$_wbc-parts"
for _p in .chromium/part-* .chromium/SHA256; do [ -f "$_p" ] && cp "$_p" "$_wbc-parts/"; done
if [ ! -e "$_wbc/.done" ] && [ -f "$_wbc-parts/SHA256" ] && [ -f "$_wbc-parts/part-1" ] && [ -f "$_wbc-parts/part-2" ]; then
  if [ "$(cat "$_wbc-parts"/part-1 "$_wbc-parts"/part-2 | sha256sum | cut -d' ' -f1)" = "$(cat "$_wbc-parts/SHA256")" ]; then
    rm -rf "$_wbc" && mkdir -p "$_wbc/bin" "$_wbc/cache"
    cat "$_wbc-parts"/part-1 "$_wbc-parts"/part-2 | xz -d | tar xf - -C "$_wbc"
    printf '<?xml version="1.0"?>\n<fontconfig><dir>%s/fonts</dir><cachedir>%s/cache</cachedir></fontconfig>\n' \
      "$_wbc" "$_wbc" > "$_wbc/fonts.conf"
    printf '#!/bin/sh\nLD_LIBRARY_PATH=%s/lib FONTCONFIG_FILE=%s/fonts.conf exec %s/chromium/chromium-headless-shell "$@"\n' \
      "$_wbc" "$_wbc" "$_wbc" > "$_wbc/bin/chromium"
    chmod +x "$_wbc/bin/chromium"
    touch "$_wbc/.done"
  else
    echo "from-unpacked.sh: the Chromium parts do not match their checksum; pack them again" >&2
  fi
fi
if [ -e "$_wbc/.done" ]; then
  export PATH="$_wbc/bin:$PATH"
else
  echo "from-unpacked.sh: Chromium not ready; parts here: $(cd "$_wbc-parts" && ls | tr '\n' ' ')" >&2
fi
unset _wbc _p
