#!/bin/sh
# Runs a command with a real Secret Service (gnome-keyring) on a private D-Bus session, headless: what qtkeychain
# talks to on Linux desktops. The keyring files and sockets live in a temporary directory, removed afterwards, so
# the user's own keyring is never touched. Exit 77 (a ctest skip) when dbus-run-session or gnome-keyring-daemon is
# missing; packaging/setup.sh installs both (dbus-daemon, gnome-keyring).
set -u
for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "with-secret-service: $tool not found (apt-get install dbus-daemon gnome-keyring)" >&2
    exit 77
  fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qflame-keyring.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -m 700 "$tmp/data" "$tmp/config" "$tmp/runtime"
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" XDG_RUNTIME_DIR="$tmp/runtime"
# The daemon's unlock password is a throwaway: the keyring it creates is deleted with $tmp. dbus-run-session ends
# the bus, and with it the daemon, when the command returns. The fd-limit warning dbus-daemon prints when it may
# not raise its limit (containers) is harmless.
dbus-run-session -- sh -c '
  echo qflame-test-keyring | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 1
  exec "$@"' sh "$@"
