#!/usr/bin/env bash
# Build dist/Memdesk.app with PyInstaller and wrap it in dist/Memdesk-<version>.dmg.
# Runs on macOS, from a checkout where `make install` has created .venv.
set -euo pipefail
cd "$(dirname "$0")/../.."
python="${PYTHON:-.venv/bin/python}"
[ -x "$python" ] || { echo "no $python: run 'make install' first" >&2; exit 1; }

# Pillow lets PyInstaller turn the PNG icon into the .icns an app bundle needs.
"$python" -m pip install --quiet 'pyinstaller>=6.10,<7' pillow
"$python" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath dist --workpath build/pyinstaller packaging/pyinstaller/memdesk.spec

read -r version app_id app_name <<< "$("$python" packaging/project.py)"
app="dist/${app_name}.app"
bundle_id="$(/usr/libexec/PlistBuddy -c 'Print :CFBundleIdentifier' "$app/Contents/Info.plist")"
[ "$bundle_id" = "$app_id" ] || { echo "CFBundleIdentifier is $bundle_id, not $app_id" >&2; exit 1; }
"$app/Contents/MacOS/memdesk" --version

# The disk image shows the app next to a link to /Applications, for drag-and-drop install.
stage="build/dmg"
rm -rf "$stage"
mkdir -p "$stage"
ditto "$app" "$stage/${app_name}.app"
ln -s /Applications "$stage/Applications"
hdiutil create -volname "$app_name" -srcfolder "$stage" -ov -format UDZO \
    "dist/${app_name}-${version}.dmg"
echo "built dist/${app_name}-${version}.dmg"
