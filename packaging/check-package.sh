#!/usr/bin/env bash
# Builds the .deb from a build directory (or takes one), unpacks it into a scratch root and checks that it is a
# package that installs and runs on Debian 12:
#   - its control fields, and every library the binary links is declared in Depends (dpkg-shlibdeps' work);
#   - apt accepts it with its dependencies (a simulated install: nothing on the machine changes);
#   - it ships the binary, the .desktop file, AppStream metainfo, MIME types, icons, man page and examples, and
#     these validate (appstreamcli, update-mime-database, groff);
#   - the unpacked `qflame --version`, `qflame info` and `qflame top` run and print the right numbers, and the
#     window starts (offscreen).
# usage: packaging/check-package.sh BUILD_DIR [PACKAGE.deb]
# Prints "packaging check: N passed, 0 failed" and exits 0 when everything holds; exits 1 at the first failure.
set -euo pipefail

BUILD_DIR="$(cd "${1:?usage: $0 BUILD_DIR [PACKAGE.deb]}" && pwd)"
DEB="${2:-}"
WORK="$BUILD_DIR/package-check"
passed=0

say() { echo "packaging check: $*"; }
fail() { say "FAILED: $*"; say "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); say "ok - $*"; }
need() {   # need COMMAND DEBIAN_PACKAGE
  command -v "$1" >/dev/null 2>&1 || fail "$1 is missing (apt-get install $2; packaging/setup.sh installs it)"
}

need cpack cmake
need dpkg-shlibdeps dpkg-dev
need appstreamcli appstream
need update-mime-database shared-mime-info
need readelf binutils
need groff groff-base

rm -rf "$WORK"
mkdir -p "$WORK"
if [ -z "$DEB" ]; then
  start=$(date +%s)
  (cd "$WORK" && cpack -G DEB --config "$BUILD_DIR/CPackConfig.cmake" -B "$WORK/out" >"$WORK/cpack.log" 2>&1) ||
    { tail -20 "$WORK/cpack.log"; fail "cpack -G DEB (log: $WORK/cpack.log)"; }
  DEB="$(ls "$WORK"/out/qflame_*.deb)"
  ok "cpack -G DEB made $(basename "$DEB") in $(( $(date +%s) - start )) s"
fi
[ -f "$DEB" ] || fail "no package at $DEB"
# apt-get takes a file for a package only by a path that starts ./ or /: to it, build/deb/x.deb is a name.
DEB="$(cd "$(dirname "$DEB")" && pwd)/$(basename "$DEB")"
say "package: $DEB ($(stat -c %s "$DEB") bytes)"

# Control fields.
field() { dpkg-deb --field "$DEB" "$1"; }
[ "$(field Package)" = qflame ] || fail "Package is '$(field Package)'"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture is '$(field Architecture)'"
version="$(field Version)"
[ -n "$version" ] || fail "no Version"
depends="$(field Depends)"
say "Depends: $depends"
ok "control: qflame $version for $(field Architecture)"

# Every library the binary needs directly comes from a package named in Depends.
ROOT="$WORK/root"
dpkg-deb -x "$DEB" "$ROOT"
BIN="$ROOT/usr/bin/qflame"
GUI="$ROOT/usr/bin/qflame-gui"   # the window; `qflame` runs the headless verbs without the GUI libraries
[ -x "$BIN" ] || fail "no executable usr/bin/qflame in the package"
[ -x "$GUI" ] || fail "no executable usr/bin/qflame-gui in the package"
MODULE="$ROOT/usr/lib/qflame/libqflame-window.so"   # qflame-gui as a library, which `qflame FILE` loads (app/WindowHandoff.h)
[ -s "$MODULE" ] || fail "no usr/lib/qflame/libqflame-window.so in the package"
CLI_MODULE="$ROOT/usr/lib/qflame/libqflame-cli.so"   # the verbs on QtCore, which `qflame` (built without Qt) loads
[ -s "$CLI_MODULE" ] || fail "no usr/lib/qflame/libqflame-cli.so in the package"
declared=" $(echo "$depends" | tr ',|' '\n\n' | sed -E 's/\(.*\)//; s/:any//; s/[[:space:]]//g' | tr '\n' ' ') "
# The cache listing goes to a file first: `ldconfig -p | awk '... exit'` kills ldconfig with SIGPIPE when awk
# stops early, and under pipefail that ended this script silently on machines with a long cache.
ldconfig -p >"$WORK/ldconfig.txt"
while read -r soname; do
  path="$(awk -v s="$soname" '$1 == s && /x86-64|x86_64|64bit/ {print $NF; exit}' "$WORK/ldconfig.txt")"
  [ -n "$path" ] || path="$(awk -v s="$soname" '$1 == s {print $NF; exit}' "$WORK/ldconfig.txt")"
  [ -n "$path" ] || fail "$soname (needed by qflame) is not installed here"
  owner="$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null ||
           dpkg -S "/usr$(readlink -f "$path")" 2>/dev/null || true)"
  pkg="${owner%%:*}"
  [ -n "$pkg" ] || fail "no Debian package owns $path ($soname)"
  case "$declared" in *" $pkg "*) ;; *) fail "$soname comes from $pkg, which Depends does not name" ;; esac
done < <({ readelf -d "$BIN" "$GUI" "$MODULE" "$CLI_MODULE" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
           # and those loaded when first used, which no binary lists (where the build has them): ISA-L
           # (model/io/IsalOnDemand.cpp, for `qflame`) and Graphviz (model/graph/GraphvizOnDemand.cpp, the window)
           for lib in libisal.so.2 libgvc.so.6; do
             if grep -qa "$lib" "$BIN" "$GUI" "$MODULE"; then echo "$lib"; fi
           done; } | sort -u)
ok "every library qflame, qflame-gui and the two modules need or load on demand is in a declared dependency"
if readelf -d "$BIN" | grep -qE 'NEEDED.*\[libQt6'; then fail "qflame links a Qt library"; fi
ok "qflame (info and top; the other verbs are libqflame-cli.so's) links no Qt library"

# apt would install it with what the machine has (simulation only).
apt-get install --simulate --no-install-recommends "$DEB" >"$WORK/apt.log" 2>&1 ||
  { tail -20 "$WORK/apt.log"; fail "apt-get install --simulate refused the package"; }
grep -q "^Inst qflame " "$WORK/apt.log" || { cat "$WORK/apt.log"; fail "apt-get would not install qflame"; }
ok "apt-get install --simulate accepts it and its dependencies"

# The files of a desktop application.
for f in usr/bin/qflame usr/bin/qflame-gui usr/lib/qflame/libqflame-window.so usr/lib/qflame/libqflame-cli.so usr/share/applications/qflame.desktop usr/share/metainfo/io.github.qflame.qflame.metainfo.xml \
         usr/share/mime/packages/qflame.xml usr/share/icons/hicolor/scalable/apps/qflame.svg \
         usr/share/man/man1/qflame.1.gz usr/share/qflame/examples/baseline.cpu.pb.gz; do
  [ -s "$ROOT/$f" ] || fail "the package lacks /$f"
done
for size in 16 22 24 32 48 64 128 256 512; do
  png="$ROOT/usr/share/icons/hicolor/${size}x${size}/apps/qflame.png"
  [ -s "$png" ] || fail "the package lacks the ${size}px icon"
  head -c 24 "$png" | od -An -tx1 | tr -d ' \n' | grep -q "^89504e470d0a1a0a0000000d49484452$(printf '%08x%08x' "$size" "$size")" ||
    fail "${size}x${size}/apps/qflame.png is not a ${size}x${size} PNG"
done
ok "binaries, .desktop, metainfo, MIME types, SVG + 9 PNG icons, man page and examples are installed"

appstreamcli validate --no-net "$ROOT/usr/share/metainfo/io.github.qflame.qflame.metainfo.xml" >"$WORK/appstream.log" 2>&1 ||
  { cat "$WORK/appstream.log"; fail "appstreamcli validate"; }
ok "appstreamcli validate --no-net: $(tail -1 "$WORK/appstream.log")"

# The MIME types as a desktop sees them: a database built from freedesktop's types plus ours.
MIME="$WORK/mime"
mkdir -p "$MIME/packages"
cp /usr/share/mime/packages/freedesktop.org.xml "$ROOT/usr/share/mime/packages/qflame.xml" "$MIME/packages/"
update-mime-database "$MIME" >"$WORK/mime.log" 2>&1 || { cat "$WORK/mime.log"; fail "update-mime-database"; }
for glob in '*.pb.gz' '*.pprof' '*.prof'; do
  grep -qxF "50:application/x-pprof:$glob" "$MIME/globs2" || fail "globs2 lacks $glob for application/x-pprof"
done
grep -qxF "50:text/x-folded-stacks:*.folded" "$MIME/globs2" || fail "globs2 lacks *.folded"
ok "update-mime-database registers application/x-pprof (*.pb.gz, *.pprof, *.prof) and text/x-folded-stacks"

gzip -t "$ROOT/usr/share/man/man1/qflame.1.gz" || fail "the man page is not valid gzip"
warnings="$(zcat "$ROOT/usr/share/man/man1/qflame.1.gz" | groff -man -ww -z 2>&1)"
[ -z "$warnings" ] || fail "groff warns about the man page: $warnings"
ok "man page: gzip, groff -man -ww without warnings"
# The installed page against the installed program's verb table: every verb form and option has its place.
bash "$(dirname "$0")/check-man.sh" "$ROOT/usr/bin/qflame" "$ROOT/usr/share/man/man1/qflame.1.gz" >"$WORK/man.log" 2>&1 ||
  { cat "$WORK/man.log"; fail "check-man.sh on the installed page"; }
ok "$(tail -1 "$WORK/man.log")"

# The installed program runs from the unpacked tree with the system's libraries.
out="$("$BIN" --version)"
[ "$out" = "qflame $version" ] || fail "qflame --version printed '$out', expected 'qflame $version'"
ok "qflame --version: $out"
EXAMPLE="$ROOT/usr/share/qflame/examples/baseline.cpu.pb.gz"
info="$("$BIN" info "$EXAMPLE")"
# go tool pprof's numbers for the example (tests/data/oracle/example__baseline.cpu.pb.gz.cpu.topall; its -raw
# lists 198 samples).
grep -qxF "  1  cpu/nanoseconds  [default]  total 3670000000 (3.67 s)" <<<"$info" || { echo "$info"; fail "qflame info"; }
grep -qxF "Samples: 198" <<<"$info" || { echo "$info"; fail "qflame info: sample count"; }
ok "qflame info on the installed example: 198 samples, cpu total 3670000000 ns"
top="$("$BIN" top --tsv --limit 1 "$EXAMPLE")"
[ "$top" = "$(printf '850000000\t850000000\truntime.asyncPreempt')" ] || fail "qflame top printed '$top'"
ok "qflame top --tsv --limit 1: $top"
# The window (qflame loads it from ../lib/qflame): no display here, so Qt's offscreen platform; still running
# after 3 s means it started, and its phase marks say that it came from the installed module.
set +e
QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$WORK/config" QFLAME_TRACE_PHASES=1 timeout 3 "$BIN" "$EXAMPLE" \
  >"$WORK/window.log" 2>&1   # its recent files not the user's
rc=$?
set -e
[ "$rc" -eq 124 ] || { cat "$WORK/window.log"; fail "the window exited with status $rc within 3 s"; }
grep -q "^phase [0-9.]* window module starts$" "$WORK/window.log" ||
  { cat "$WORK/window.log"; fail "qflame did not load the installed window module"; }
ok "the window starts from the installed module and keeps running (offscreen)"

say "$passed passed, 0 failed"
