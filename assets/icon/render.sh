#!/usr/bin/env sh
# Renders fleetview.svg to the PNG sizes the desktops ask for (hicolor
# theme: 16..512; the window icon uses 256). Needs rsvg-convert
# (Debian: librsvg2-bin). The PNGs are committed: building needs no tool.
set -eu
cd "$(dirname "$0")"
for size in 16 24 32 48 64 128 256 512; do
    rsvg-convert --width "$size" --height "$size" fleetview.svg --output "fleetview-$size.png"
done
