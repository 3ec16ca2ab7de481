#!/usr/bin/env bash
# Build dist/memdesk_<version>_<arch>.deb from the PyInstaller bundle in dist/memdesk.
# The bundle goes to /opt/memdesk, with /usr/bin/memdesk, the menu entry, AppStream
# metadata and hicolor icons in the standard places.
set -euo pipefail
cd "$(dirname "$0")/../.."
source packaging/linux/common.sh

bundle="dist/memdesk"
stage="build/deb/memdesk_${VERSION}_${ARCH}"
maintainer="${DEB_MAINTAINER:-Memdesk developers <memdesk@users.noreply.github.com>}"
desktop="resources/linux/${APP_ID}.desktop"
metainfo="resources/linux/${APP_ID}.metainfo.xml"

[ -x "$bundle/memdesk" ] || { echo "no bundle at $bundle: run 'make package'" >&2; exit 1; }

# Validators come from Debian packages; install them when we may, else say what was skipped.
have_tool() {
    local tool="$1" pkg="$2"
    command -v "$tool" >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null 2>&1 \
            || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null; }
    fi
    command -v "$tool" >/dev/null 2>&1 && return 0
    echo "warning: $tool not available (Debian package $pkg): skipped that check" >&2
    return 1
}

rm -rf "$stage"
mkdir -p "$stage/DEBIAN" "$stage/opt" "$stage/usr/bin" "$stage/usr/share/applications" \
    "$stage/usr/share/metainfo" "$stage/usr/share/icons/hicolor/scalable/apps"
cp -a "$bundle" "$stage/opt/memdesk"
ln -s /opt/memdesk/memdesk "$stage/usr/bin/memdesk"
install -m 0644 "$desktop" "$stage/usr/share/applications/"
install -m 0644 "$metainfo" "$stage/usr/share/metainfo/"
install -m 0644 "resources/icons/${APP_ID}.svg" "$stage/usr/share/icons/hicolor/scalable/apps/"
install -D -m 0644 LICENSE "$stage/usr/share/doc/memdesk/copyright"
for png in resources/icons/hicolor/*/apps/"${APP_ID}.png"; do
    size_dir="$(basename "$(dirname "$(dirname "$png")")")"
    install -D -m 0644 "$png" "$stage/usr/share/icons/hicolor/$size_dir/apps/${APP_ID}.png"
done
chmod -R u=rwX,go=rX "$stage"

# The validators say what they found only when it fails the package (packaging/quietly.sh).
if have_tool desktop-file-validate desktop-file-utils; then
    packaging/quietly.sh desktop-file-validate "$desktop"
fi
if have_tool appstreamcli appstream; then
    packaging/quietly.sh appstreamcli validate --no-net "$metainfo"
    # Also checks that the metainfo, the .desktop file and the icons agree as installed.
    packaging/quietly.sh appstreamcli validate-tree --no-net "$stage"
fi

# The bundle needs this C library or newer: the highest GLIBC_ symbol version it uses.
needed_glibc() {
    find "$1" -type f \( -name '*.so*' -o -name memdesk \) -exec objdump -T {} + 2>/dev/null \
        | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -n 1
}
glibc="$(needed_glibc "$stage/opt/memdesk" || true)"
[ -n "$glibc" ] || { echo "could not read the C library version the bundle needs" >&2; exit 1; }
# Qt's xcb platform plugin and its libraries, from the list `memdesk gui` checks before Qt
# starts; Python and the rest are in the bundle.
depends="libc6 (>= ${glibc#GLIBC_}), libstdc++6, libgcc-s1, libglib2.0-0,
 $("$PYTHON" packaging/project.py xcb-packages)"
installed_kib="$(du -s --apparent-size --block-size=1024 --exclude=DEBIAN "$stage" | cut -f1)"

cat > "$stage/DEBIAN/control" <<CONTROL
Package: memdesk
Version: ${VERSION}
Architecture: ${ARCH}
Maintainer: ${maintainer}
Installed-Size: ${installed_kib}
Depends: ${depends}
Recommends: fonts-dejavu-core
Suggests: gnome-keyring
Section: utils
Priority: optional
Homepage: https://github.com/memdesk/memdesk
Description: see and control what your personal AI assistant remembers
 Memdesk is a local desktop memory manager for personal AI assistants:
 browse, edit, search, expire, purge and undo what an assistant remembers,
 compact conversations offline or with an LLM of your choice, and preview
 the exact system prompt a session would receive.
CONTROL

# The package leaves /opt out (see below), so it makes sure /opt is there before unpacking.
cat > "$stage/DEBIAN/preinst" <<'SCRIPT'
#!/bin/sh
set -e
mkdir -p /opt
exit 0
SCRIPT
chmod 0755 "$stage/DEBIAN/preinst"

# Refresh the menu and icon caches when their tools exist; user data is never touched.
for script in postinst postrm; do
    cat > "$stage/DEBIAN/$script" <<'SCRIPT'
#!/bin/sh
set -e
case "$1" in
    configure|remove|purge)
        if command -v update-desktop-database >/dev/null 2>&1; then
            update-desktop-database -q /usr/share/applications || true
        fi
        if command -v gtk-update-icon-cache >/dev/null 2>&1 \
                && [ -f /usr/share/icons/hicolor/index.theme ]; then
            gtk-update-icon-cache -q -f /usr/share/icons/hicolor || true
        fi
        ;;
esac
exit 0
SCRIPT
    chmod 0755 "$stage/DEBIAN/$script"
done

mkdir -p dist
# xz level 2: about 8% bigger than the default level 6, in a fifth of the time.
packaging/quietly.sh dpkg-deb -Zxz -z2 --root-owner-group --build "$stage" "$DEB"

# dpkg-deb lists every folder of the tree, /opt too, and dpkg then counts /opt as the
# package's own: a purge tries to remove it ("directory '/opt' not empty so not removed"),
# and would remove it when empty. No Debian package owns /opt, so the data archive is
# rebuilt without that one entry: the package ships /opt/memdesk and below.
deb_file="$(pwd)/$DEB"
unpacked="$(mktemp -d)"
(
    cd "$unpacked"
    ar x "$deb_file"
    xz -d data.tar.xz
    tar --delete --no-recursion -f data.tar ./opt/
    xz -2 -T0 data.tar
    rm "$deb_file"
    ar rcD "$deb_file" debian-binary control.tar.xz data.tar.xz
)
rm -rf "$unpacked"
listed="$(dpkg-deb --contents "$DEB" | awk '{print $NF}')"
if grep -qx './opt/' <<<"$listed" || ! grep -qx './opt/memdesk/memdesk' <<<"$listed"; then
    echo "the rebuilt package should list /opt/memdesk and not /opt" >&2
    exit 1
fi
size() { du -sh --apparent-size "$1" | cut -f1; }
echo "Built $DEB ($(size "$DEB")), the Debian package: sudo apt install ./$DEB"
echo "  from the bundle in $bundle/ ($(size "$bundle"))"
