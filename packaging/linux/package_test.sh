#!/usr/bin/env bash
# Install the built .deb as a user would, use it, remove it again, and check that nothing of
# the package is left while user data stays. Needs root and the output of `make package`.
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON="${PYTHON:-.venv/bin/python}"
source packaging/linux/common.sh

[ "$(id -u)" = 0 ] || { echo "package-test installs a system package: run it as root" >&2; exit 1; }
[ -f "$DEB" ] || { echo "missing $DEB: run 'make package' first" >&2; exit 1; }

export DEBIAN_FRONTEND=noninteractive QT_QPA_PLATFORM=offscreen
work="$(mktemp -d)"
failures=()
fail() { failures+=("$1"); echo "FAIL: $1" >&2; }
ok() { echo "ok: $1"; }
installed() { dpkg-query -W -f='${Status}' memdesk 2>/dev/null | grep -q 'ok installed'; }
purge() { apt-get remove --purge -y -qq memdesk >"$work/remove.log" 2>&1; }
cleanup() {
    if installed; then purge || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# Print the wall time of a command in seconds; its output goes to the log file given first.
timed() {
    local log="$1" start rc=0
    shift
    start="$(date +%s%N)"
    "$@" >>"$log" 2>&1 || rc=$?
    echo "$(( ($(date +%s%N) - start) / 1000000 ))" | awk '{printf "%.2fs", $1 / 1000}'
    return "$rc"
}

# Empty the page cache so the first start reads everything from disk, when the kernel lets us.
drop_caches() { sync && { echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null; }

# Time a cold then a warm start of the GUI smoke test into SMOKE_COLD and SMOKE_WARM.
smoke_times() {
    local label="$1"
    shift
    drop_caches || true
    if SMOKE_COLD="$(timed "$work/smoke-$label.log" "$@" gui --smoke-test)" \
            && SMOKE_WARM="$(timed "$work/smoke-$label.log" "$@" gui --smoke-test)"; then
        ok "gui --smoke-test ($label)"
    else
        SMOKE_COLD=failed SMOKE_WARM=failed
        fail "gui --smoke-test ($label) exited non-zero: $(tail -n 3 "$work/smoke-$label.log" | tr '\n' ' ')"
    fi
}

if installed; then purge; fi
echo "== install ./$DEB"
if ! apt-get install -y "./$DEB" >"$work/install.log" 2>&1; then
    apt-get update -qq
    apt-get install -y "./$DEB" >"$work/install.log" 2>&1 \
        || { cat "$work/install.log" >&2; echo "FAIL: apt-get install ./$DEB" >&2; exit 1; }
fi
ok "installed; apt set up $(grep -c '^Setting up' "$work/install.log") package(s) including memdesk"
if dpkg-query -L memdesk | grep -qx /opt; then
    fail "the package owns /opt itself, so purging it would try to remove /opt"
else
    ok "the package owns /opt/memdesk, not /opt"
fi

for path in /opt/memdesk/memdesk /usr/bin/memdesk "/usr/share/applications/$APP_ID.desktop" \
        "/usr/share/metainfo/$APP_ID.metainfo.xml" "/usr/share/icons/hicolor/scalable/apps/$APP_ID.svg" \
        "/usr/share/icons/hicolor/256x256/apps/$APP_ID.png"; do
    [ -e "$path" ] || fail "missing after install: $path"
done

# Help → User guide opens the guide inside the bundle, where the app's resources are; every
# page must load without a network (no script, style sheet or picture from elsewhere).
guide="$(find /opt/memdesk -path '*/memdesk/resources/guide/index.html' -print -quit)"
if [ -z "$guide" ]; then
    fail "the bundle has no user guide (memdesk/resources/guide/index.html)"
elif remote="$(grep -rlE '<(script|link|img)[^>]+(src|href)="(https?:)?//' "$(dirname "$guide")" --include='*.html')"; then
    fail "guide pages that load from the network: $(echo "$remote" | tr '\n' ' ')"
else
    ok "user guide in the bundle: $(find "$(dirname "$guide")" -name '*.html' | wc -l) pages, none loads from the network"
fi

# Depends must bring every library Qt's X11 platform plugin links against.
xcb_plugin="$(find /opt/memdesk -name libqxcb.so -print -quit)"
if [ -z "$xcb_plugin" ]; then
    fail "the bundle has no Qt xcb platform plugin"
elif missing="$(ldd "$xcb_plugin" | grep 'not found')"; then
    fail "libraries missing for $xcb_plugin: $(echo "$missing" | awk '{print $1}' | tr '\n' ' ')"
else
    ok "Qt xcb platform plugin resolves all its libraries"
fi

echo "== memdesk --version"
if version_out="$(/usr/bin/memdesk --version 2>&1)" && [[ "$version_out" == *"$VERSION"* ]]; then
    ok "--version: $version_out"
else
    fail "--version printed '$version_out', expected it to contain $VERSION"
fi

echo "== CLI round trip on a temporary store"
data="$work/data"
text="Prefers short answers. Lives in Lisbon; café at 9 — no calls before noon."
if /usr/bin/memdesk --data-dir "$data" doc set user/profile "$text" >"$work/doc.log" 2>&1 \
        && shown="$(/usr/bin/memdesk --data-dir "$data" doc show user/profile 2>>"$work/doc.log")" \
        && [ "$shown" = "$text" ]; then
    ok "doc set / doc show user/profile round-trips"
else
    fail "doc set/show round trip: got '${shown:-}' $(tail -n 3 "$work/doc.log" | tr '\n' ' ')"
fi

echo "== recall by meaning in the installed bundle (numpy and the sentence encoder)"
facts="- Goes to Planet Fitness in Burbank, usually 6am
- Sister Ana lives in Sacramento"
if /usr/bin/memdesk --data-dir "$data" doc set user/facts "$facts" >"$work/meaning.log" 2>&1 \
        && recalled="$(/usr/bin/memdesk --data-dir "$data" prompt --message "which gym am i at?" 2>>"$work/meaning.log")" \
        && [[ "$recalled" == *"Planet Fitness"* ]]; then
    ok "a fact sharing no word with the question is recalled"
else
    fail "recall by meaning: got '${recalled:-}' $(tail -n 3 "$work/meaning.log" | tr '\n' ' ')"
fi

echo "== an MCP client calls the installed memdesk mcp"
if mcp_out="$("$PYTHON" packaging/linux/mcp_check.py /usr/bin/memdesk "$work/mcp-data" 2>"$work/mcp.log")"; then
    ok "memdesk mcp: $mcp_out"
    if [[ "$(/usr/bin/memdesk --data-dir "$work/mcp-data" history --actor mcp:package-test)" == *"Save entry package_check"* ]]; then
        ok "the client's write is in history under mcp:package-test"
    else
        fail "history --actor mcp:package-test does not show the client's write"
    fi
else
    fail "memdesk mcp over stdio: $(tail -n 5 "$work/mcp.log" | tr '\n' ' ')"
fi

echo "== the installed memdesk on both engines"
if store_out="$("$PYTHON" packaging/linux/store_check.py /usr/bin/memdesk "$work/stores" 2>"$work/stores.log")"; then
    ok "$store_out"
else
    fail "stores: $(tail -n 5 "$work/stores.log" | tr '\n' ' ')"
fi

echo "== Claude Code: memdesk connect claude-code and its hook, installed"
cc_home="$work/cc-home"
cc_data="$work/cc-data"
cc_session="3f2a9c1e-7b4d-4e8f-9a0b-1c2d3e4f5a6b"
cc_transcript="$cc_home/.claude/projects/-work-atlas/$cc_session.jsonl"
mkdir -p "$(dirname "$cc_transcript")"
printf '%s\n' '{"type":"user","cwd":"/work/atlas","timestamp":"2026-05-01T09:00:00Z","message":{"role":"user","content":"We chose Berlin for the offsite."}}' >"$cc_transcript"
cc() { HOME="$cc_home" CLAUDE_CONFIG_DIR= /usr/bin/memdesk --data-dir "$cc_data" "$@"; }
if cc connect claude-code >"$work/cc.log" 2>&1 \
        && grep -q '"/usr/bin/memdesk --data-dir .* hook claude-code"' "$cc_home/.claude/settings.json" \
        && "$PYTHON" -c 'import json, sys; e = json.load(open(sys.argv[1]))["mcpServers"]["memdesk"]; assert e["command"] == "/usr/bin/memdesk" and e["args"][-1] == "mcp", e' "$cc_home/.claude.json" 2>>"$work/cc.log" \
        && [[ "$(cc connect claude-code 2>>"$work/cc.log")" == *"nothing changed"* ]]; then
    ok "connect claude-code: MCP server and hooks run /usr/bin/memdesk; a second connect changes nothing"
else
    fail "connect claude-code: $(tail -n 3 "$work/cc.log" | tr '\n' ' ')"
fi
start_out="$(echo '{"hook_event_name":"SessionStart","cwd":"/work/atlas","source":"startup"}' | cc hook claude-code 2>>"$work/cc.log")" || true
if echo "$start_out" | "$PYTHON" -c 'import json, sys; assert json.load(sys.stdin)["hookSpecificOutput"]["hookEventName"] == "SessionStart"' 2>>"$work/cc.log"; then
    ok "hook claude-code answers SessionStart with additionalContext"
else
    fail "hook claude-code SessionStart printed '$start_out'"
fi
if stop_out="$(echo "{\"hook_event_name\":\"Stop\",\"transcript_path\":\"$cc_transcript\"}" | cc hook claude-code 2>>"$work/cc.log")" \
        && [ -z "$stop_out" ] && [[ "$(cc session show "claude-code:$cc_session" 2>>"$work/cc.log")" == *"Berlin"* ]]; then
    ok "hook claude-code at Stop read the transcript into claude-code:$cc_session"
else
    fail "hook claude-code Stop: '${stop_out:-}' $(tail -n 3 "$work/cc.log" | tr '\n' ' ')"
fi
if bad_out="$(echo 'not json' | cc hook claude-code 2>/dev/null)" && [ -z "$bad_out" ]; then
    ok "hook claude-code with bad input prints nothing and exits 0"
else
    fail "hook claude-code with bad input printed '${bad_out:-}' or failed"
fi
if cc disconnect claude-code >>"$work/cc.log" 2>&1 && ! grep -q 'hook claude-code' "$cc_home/.claude/settings.json"; then
    ok "disconnect claude-code takes the hooks out"
else
    fail "disconnect claude-code: $(tail -n 3 "$work/cc.log" | tr '\n' ' ')"
fi

echo "== GUI smoke test, installed and from the checkout"
smoke_times installed /usr/bin/memdesk --data-dir "$work/smoke-installed"
installed_times="$SMOKE_COLD / $SMOKE_WARM"
smoke_times checkout .venv/bin/python -m memdesk --data-dir "$work/smoke-checkout"
checkout_times="$SMOKE_COLD / $SMOKE_WARM"

bundle_size="$(du -sh dist/memdesk | cut -f1)"
deb_size="$(du -h --apparent-size "$DEB" | cut -f1)"
installed_size="$(dpkg-query -W -f='${Installed-Size}' memdesk | awk '{printf "%.0fM", $1 / 1024}')"
opt_size="$(du -sh /opt/memdesk | cut -f1)"

echo "== remove --purge"
# Checksums of the files in the test store: the purge must leave user data alone.
store_digest() { [ -d "$data" ] && (cd "$data" && find . -type f -exec sha256sum {} + | sort); }
data_before="$(store_digest || true)"
purge || { cat "$work/remove.log" >&2; fail "apt-get remove --purge memdesk"; }
if installed; then fail "memdesk is still installed after purge"; fi
if grep -q "not empty so not removed" "$work/remove.log"; then
    fail "purge warned: $(grep "not empty so not removed" "$work/remove.log" | head -n 1)"
fi
leftovers="$( { ls -d /opt/memdesk /usr/bin/memdesk /usr/share/doc/memdesk 2>/dev/null
    find /usr/share/applications /usr/share/metainfo /usr/share/icons/hicolor -name "*$APP_ID*" \
        2>/dev/null; } || true)"
if [ -n "$leftovers" ]; then
    fail "left after purge: $(echo "$leftovers" | tr '\n' ' ')"
else
    ok "nothing of the package is left"
fi
data_after="$(store_digest || true)"
if [ -n "$data_before" ] && [ "$data_before" = "$data_after" ]; then
    ok "user data untouched ($(echo "$data_after" | wc -l) file(s) in the store)"
else
    fail "user data changed or missing after purge"
fi

echo "== measurements"
printf '%-44s %s\n' \
    "bundle (du -sh dist/memdesk)" "$bundle_size" \
    ".deb ($(basename "$DEB"))" "$deb_size" \
    "installed (Installed-Size)" "$installed_size" \
    "installed (du -sh /opt/memdesk)" "$opt_size" \
    "gui --smoke-test, installed: cold / warm" "$installed_times" \
    "gui --smoke-test, checkout: cold / warm" "$checkout_times"

if [ "${#failures[@]}" -gt 0 ]; then
    printf '\n%d check(s) failed:\n' "${#failures[@]}" >&2
    printf '  - %s\n' "${failures[@]}" >&2
    exit 1
fi
echo "package-test passed"
