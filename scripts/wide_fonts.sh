#!/usr/bin/env bash
# The extra text fonts of the "wide" procedural designs (build_index_model.py --design-mix with a
# fourth share; scripts/vision_data/variants.py): Debian font packages unpacked into
# build/wide-fonts/, not installed, so that fontconfig (and with it the shipped recipe's var:
# designs and the app) never sees them. Idempotent; training only, not run by the README's commands.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/wide-fonts
[ -f "$out/.done" ] && exit 0
packages=(fonts-noto-core fonts-texgyre fonts-roboto-unhinted fonts-open-sans fonts-lato
          fonts-cantarell fonts-crosextra-carlito fonts-crosextra-caladea fonts-hack
          fonts-firacode fonts-league-spartan fonts-linuxlibertine fonts-ebgaramond
          fonts-comic-neue fonts-inconsolata)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download "${packages[@]}" >/dev/null)
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$work/root"; done
mkdir -p "$out"
# Latin text faces only: Noto's other scripts have no Latin letters to draw a rank with, and
# TeX Gyre Chorus is a calligraphic script no deck prints its index in
find "$work/root" \( -name '*.ttf' -o -name '*.otf' \) \
    ! -name 'texgyrechorus*' \( ! -name 'Noto*' -o -name 'NotoSans-*' -o -name 'NotoSerif-*' \
    -o -name 'NotoSansMono-*' -o -name 'NotoSansDisplay-*' -o -name 'NotoSerifDisplay-*' \) \
    -exec cp {} "$out/" \;
touch "$out/.done"
echo "wide fonts: $(find "$out" -name '*.[ot]tf' | wc -l) files in $out"
