#!/usr/bin/env bash
# qryn-fixture.sh: a real qryn server (npm qryn@3.2.39) on an embedded ClickHouse (npm chdb@3.4.0)
# for qflame's qryn client tests. Everything binds to 127.0.0.1; every wait is bounded; processes are
# stopped by PID (process group). See README.md beside this file.
#
# Adapted from the team's research harness (shared/qryn/harness, documented in shared/qryn/qryn.md §9).
#
# usage:
#   qryn-fixture.sh install
#   qryn-fixture.sh start DIR
#   qryn-fixture.sh load  DIR FILE SERVICE FROM_S UNTIL_S [k=v,...]
#   qryn-fixture.sh load-batch DIR LIST  # LIST: one "FILE<tab>SERVICE<tab>FROM_S<tab>UNTIL_S<tab>k=v,..." a line
#   qryn-fixture.sh seed  DIR            # loads the standard test data set (profiles/ beside this file)
#   qryn-fixture.sh up    DIR            # install + start + seed
#   qryn-fixture.sh ctest-up DIR         # up for CTest: exit 77 (skip) without node/npm, unless CI is set
#   qryn-fixture.sh smoke DIR [SERVICE [LABEL]]
#   qryn-fixture.sh observe DIR [AUTH_DIR]   # prints the JSON report that OBSERVED.md was written from
#   qryn-fixture.sh status DIR
#   qryn-fixture.sh stop  DIR
#
# env:
#   QFLAME_NPM_CACHE            install dir for the npm packages (default $HOME/.cache/qflame-qryn)
#   QFLAME_QRYN_LOGIN/PASSWORD  start: enable qryn basic auth (QRYN_LOGIN/QRYN_PASSWORD)
#   QFLAME_QRYN_START_TIMEOUT   start: seconds to wait for readiness (default 180)
#   QFLAME_NPM_TIMEOUT          install: seconds per npm run (default 1200)
set -euo pipefail

QRYN_VERSION=3.2.39
CHDB_VERSION=3.4.0
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${QFLAME_NPM_CACHE:-${HOME:-/tmp}/.cache/qflame-qryn}"
case "$CACHE" in /*) ;; *) CACHE="$PWD/$CACHE" ;; esac
QRYN_PREFIX="$CACHE/qryn-$QRYN_VERSION"
CHDB_PREFIX="$CACHE/chdb-$CHDB_VERSION"
QRYN_PKG="$QRYN_PREFIX/node_modules/qryn"
START_TIMEOUT="${QFLAME_QRYN_START_TIMEOUT:-180}"
NPM_TIMEOUT="${QFLAME_NPM_TIMEOUT:-1200}"
CH_DB=qryn

say() { echo "qryn-fixture: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

need_node() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    say "node and npm are required (tested with Node 20)."
    say "On Debian 12:  apt-get update && apt-get install -y nodejs npm"
    exit 3
  fi
  local major
  major="$(node -e 'process.stdout.write(process.versions.node.split(".")[0])')"
  if [ "$major" -lt 18 ]; then
    say "Node >= 18 is required, found $(node --version). On Debian 12: apt-get install -y nodejs npm"
    exit 3
  fi
}

# version of an installed package ("" if absent)
pkg_version() {
  node -e 'try { process.stdout.write(require(process.argv[1]).version) } catch (e) {}' "$1/package.json" 2>/dev/null || true
}

qryn_installed() {
  [ -f "$QRYN_PREFIX/.qflame-installed" ] && [ "$(pkg_version "$QRYN_PKG")" = "$QRYN_VERSION" ] &&
    [ -f "$QRYN_PKG/qryn_node.js" ] && [ -f "$QRYN_PKG/pyroscope/querier_pb.js" ]
}

chdb_installed() {
  [ -f "$CHDB_PREFIX/.qflame-installed" ] && [ "$(pkg_version "$CHDB_PREFIX/node_modules/chdb")" = "$CHDB_VERSION" ] &&
    compgen -G "$CHDB_PREFIX/node_modules/@chdb/lib-*/*" >/dev/null
}

# npm_install NAME PREFIX [PATCHES]: installs tests/qryn/npm/NAME/package.json (+ its lock file) into PREFIX.
# PATCHES: the package's patch-package folder (under PREFIX); the install scripts are then skipped and those
# patches applied from PREFIX. qryn's own postinstall runs patch-package inside node_modules/qryn, where the lock
# file's tree has no bnf (it is hoisted to PREFIX/node_modules): with npm 11 (Node 20 from NodeSource on a fresh
# Debian 12, 2026-12) the patch, and the install with it, failed. The only other install script of qryn's tree,
# protobufjs' postinstall, checks its command line tool's optional dependencies, which qryn does not use.
npm_install() {
  local name="$1" prefix="$2" patches="${3:-}" src="$HERE/npm/$1"
  say "installing $name into $prefix (npm registry; this can take a few minutes the first time)"
  rm -rf "$prefix"
  mkdir -p "$prefix"
  cp "$src/package.json" "$prefix/"
  # The committed lock file pins the whole dependency tree. `npm install` (not `npm ci`) because chdb's lock
  # cannot list its optional platform packages for other OSes/CPUs, which `npm ci` rejects as out of sync.
  [ -f "$src/package-lock.json" ] && cp "$src/package-lock.json" "$prefix/"
  local log="$CACHE/npm-$name.log"
  local scripts=()
  [ -n "$patches" ] && scripts=(--ignore-scripts)
  if ! (cd "$prefix" && timeout "$NPM_TIMEOUT" npm install --no-audit --no-fund --loglevel=warn \
      --omit-lockfile-registry-resolved "${scripts[@]}") >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    die "npm install for $name failed (log: $log)"
  fi
  if [ -n "$patches" ] && ! (cd "$prefix" && node_modules/.bin/patch-package --patch-dir "$patches") >>"$log" 2>&1; then
    tail -n 30 "$log" >&2
    die "patching $name failed (log: $log)"
  fi
  grep -E '^(added|changed|up to date)' "$log" >&2 || true
  date -u +%FT%TZ >"$prefix/.qflame-installed"
}

cmd_install() {
  need_node
  mkdir -p "$CACHE"
  # one install at a time per cache dir (parallel ctest runs)
  exec 9>"$CACHE/.lock"
  flock -w "$NPM_TIMEOUT" 9 || die "timed out waiting for the install lock $CACHE/.lock"
  if qryn_installed; then say "qryn $QRYN_VERSION already installed in $QRYN_PREFIX"; else npm_install qryn "$QRYN_PREFIX" node_modules/qryn/patches; fi
  if chdb_installed; then say "chdb $CHDB_VERSION already installed in $CHDB_PREFIX"; else npm_install chdb "$CHDB_PREFIX"; fi
  qryn_installed || die "qryn $QRYN_VERSION is not usable in $QRYN_PREFIX after install"
  chdb_installed || die "chdb $CHDB_VERSION (with its @chdb/lib-* binary) is not usable in $CHDB_PREFIX after install"
  exec 9>&-
}

require_installed() {
  need_node
  qryn_installed && chdb_installed || die "qryn/chdb are not installed in $CACHE: run '$0 install' first"
}

abs_dir() { mkdir -p "$1" && (cd "$1" && pwd); }

# is PID alive and one of ours for fixture dir DIR? (guards against PID reuse)
# (a zombie counts as dead)
proc_state() { # PID -> "STATE PGID" from /proc/PID/stat (no procps needed)
  local st
  st="$( { cat "/proc/$1/stat"; } 2>/dev/null)" || return 1
  st="${st##*) }"                # drop "pid (comm) "; comm may contain spaces
  set -- $st
  echo "$1 $3"                   # fields: state ppid pgrp ...
}
ours() {
  local pid="$1" dir="$2" state
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  state="$(proc_state "$pid")" || return 1
  [ -n "$state" ] && [ "${state%% *}" != Z ] || return 1
  { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | grep -qxF "QFLAME_FIXTURE_DIR=$dir"
}

# kill_group PID DIR: TERM the process group led by PID, wait up to 10 s, then KILL
kill_group() {
  local pid="$1" dir="$2" i
  ours "$pid" "$dir" || return 0
  local pgid
  pgid="$(proc_state "$pid" | cut -d' ' -f2)"
  if [ "$pgid" = "$pid" ]; then kill -TERM -- "-$pid" 2>/dev/null || true; else kill -TERM "$pid" 2>/dev/null || true; fi
  for i in $(seq 1 100); do
    ours "$pid" "$dir" || break
    sleep 0.1
  done
  if ours "$pid" "$dir"; then
    say "pid $pid did not stop on SIGTERM, sending SIGKILL"
    if [ "$pgid" = "$pid" ]; then kill -KILL -- "-$pid" 2>/dev/null || true; else kill -KILL "$pid" 2>/dev/null || true; fi
    sleep 0.2
  fi
}

show_logs() {
  local dir="$1" f
  for f in "$dir/shim.log" "$dir/qryn.log"; do
    [ -f "$f" ] || continue
    echo "----- tail of $f -----" >&2
    tail -n 40 "$f" >&2 || true
  done
}

cmd_stop() {
  [ $# -ge 1 ] || die "usage: $0 stop DIR"
  [ -d "$1" ] || { say "no such dir $1, nothing to stop"; return 0; }
  local dir
  dir="$(cd "$1" && pwd)"
  local f pid
  for f in qryn.pid shim.pid; do
    [ -f "$dir/$f" ] || continue
    pid="$(cat "$dir/$f" 2>/dev/null || true)"
    if [ -n "$pid" ]; then kill_group "$pid" "$dir"; fi
    rm -f "$dir/$f"
  done
  rm -rf "$dir/chdb-data" "$dir/tmp"
  [ -f "$dir/env" ] && echo "# stopped $(date -u +%FT%TZ)" >>"$dir/env"
  say "stopped ($dir)"
}

# spawn DIR NAME LOG [VAR=value...] cmd...: start cmd in its own session/process group with a clean
# environment (only PATH, HOME, LANG and the given variables); PID -> DIR/NAME.pid. The marker
# QFLAME_FIXTURE_DIR=DIR in its environment lets stop/status tell our processes from a reused PID.
spawn() {
  local dir="$1" name="$2" log="$3"; shift 3
  setsid env -i PATH="$PATH" HOME="${HOME:-/tmp}" LANG=C.UTF-8 QFLAME_FIXTURE_DIR="$dir" "$@" </dev/null >>"$log" 2>&1 &
  echo $! >"$dir/$name.pid"
}

cmd_start() {
  [ $# -ge 1 ] || die "usage: $0 start DIR"
  require_installed
  local dir
  dir="$(abs_dir "$1")"
  if [ -f "$dir/qryn.pid" ] && ours "$(cat "$dir/qryn.pid")" "$dir"; then die "a fixture is already running in $dir (stop it first)"; fi
  cmd_stop "$dir" 2>/dev/null || true
  rm -f "$dir/env" "$dir/shim.port" "$dir/loads.jsonl"
  mkdir -p "$dir/chdb-data" "$dir/tmp"
  : >"$dir/shim.log"; : >"$dir/qryn.log"
  local t0=$SECONDS

  # 1. ClickHouse HTTP shim over chdb; it binds 127.0.0.1:0 and writes the port it got
  spawn "$dir" shim "$dir/shim.log" NODE_PATH="$CHDB_PREFIX/node_modules" TMPDIR="$dir/tmp" \
    SHIM_PORT=0 SHIM_PORT_FILE="$dir/shim.port" SHIM_DATA="$dir/chdb-data" \
    node "$HERE/ch_http_shim.js"
  if ! node "$HERE/fixture_util.js" wait-shim "$dir/shim.port" "$(cat "$dir/shim.pid")" 60; then
    show_logs "$dir"; cmd_stop "$dir" >/dev/null 2>&1 || true; die "the ClickHouse shim did not come up"
  fi
  local ch_port
  ch_port="$(cat "$dir/shim.port")"

  # 2. qryn; the port is picked free just before the start, so retry on a lost race (EADDRINUSE)
  # qryn enables basic auth only when both QRYN_LOGIN and QRYN_PASSWORD are non-empty
  local auth_env=()
  if [ -n "${QFLAME_QRYN_LOGIN:-}" ] || [ -n "${QFLAME_QRYN_PASSWORD:-}" ]; then
    [ -n "${QFLAME_QRYN_LOGIN:-}" ] && [ -n "${QFLAME_QRYN_PASSWORD:-}" ] ||
      die "set both QFLAME_QRYN_LOGIN and QFLAME_QRYN_PASSWORD (qryn ignores one without the other)"
    auth_env=(QRYN_LOGIN="$QFLAME_QRYN_LOGIN" QRYN_PASSWORD="$QFLAME_QRYN_PASSWORD")
  fi
  local attempt qryn_port ok=0
  for attempt in 1 2 3; do
    qryn_port="$(node "$HERE/fixture_util.js" free-port)"
    echo "=== qryn start attempt $attempt on 127.0.0.1:$qryn_port ($(date -u +%FT%TZ))" >>"$dir/qryn.log"
    (cd "$QRYN_PKG" && spawn "$dir" qryn "$dir/qryn.log" ${auth_env[@]+"${auth_env[@]}"} TMPDIR="$dir/tmp" \
      HOST=127.0.0.1 PORT="$qryn_port" CLICKHOUSE_SERVER=127.0.0.1 CLICKHOUSE_PORT="$ch_port" \
      CLICKHOUSE_PROTO=http CLICKHOUSE_DB="$CH_DB" CLICKHOUSE_AUTH=default: \
      node qryn_node.js)
    local left=$((START_TIMEOUT - (SECONDS - t0)))
    [ "$left" -ge 1 ] || left=1
    if QRYN_LOGIN="${QFLAME_QRYN_LOGIN:-}" QRYN_PASSWORD="${QFLAME_QRYN_PASSWORD:-}" \
      node "$HERE/fixture_util.js" wait-qryn "http://127.0.0.1:$qryn_port" "$ch_port" "$CH_DB" "$(cat "$dir/qryn.pid")" "$left"; then
      ok=1; break
    fi
    if grep -q EADDRINUSE "$dir/qryn.log" && ! ours "$(cat "$dir/qryn.pid")" "$dir"; then
      say "port $qryn_port was taken, retrying"; continue
    fi
    break
  done
  if [ "$ok" != 1 ]; then
    show_logs "$dir"; cmd_stop "$dir" >/dev/null 2>&1 || true
    die "qryn did not become ready within ${START_TIMEOUT}s (logs above, in $dir)"
  fi

  {
    echo "# written by tests/qryn/qryn-fixture.sh start, $(date -u +%FT%TZ)"
    printf 'QRYN_URL=%q\n' "http://127.0.0.1:$qryn_port"
    printf 'QRYN_HOST=127.0.0.1\n'
    printf 'QRYN_PORT=%q\n' "$qryn_port"
    printf 'CH_PORT=%q\n' "$ch_port"
    printf 'CH_URL=%q\n' "http://127.0.0.1:$ch_port"
    printf 'CH_DB=%q\n' "$CH_DB"
    printf 'QRYN_PID=%q\n' "$(cat "$dir/qryn.pid")"
    printf 'SHIM_PID=%q\n' "$(cat "$dir/shim.pid")"
    printf 'QRYN_DATA_DIR=%q\n' "$dir/chdb-data"
    printf 'QRYN_DIR=%q\n' "$QRYN_PKG"
    printf 'QRYN_VERSION=%q\n' "$QRYN_VERSION"
    printf 'QFLAME_FIXTURE_DIR=%q\n' "$dir"
    if [ -n "${QFLAME_QRYN_LOGIN:-}" ]; then
      printf 'QRYN_LOGIN=%q\n' "$QFLAME_QRYN_LOGIN"
      printf 'QRYN_PASSWORD=%q\n' "${QFLAME_QRYN_PASSWORD:-}"
    fi
  } >"$dir/env.tmp"
  mv "$dir/env.tmp" "$dir/env"
  say "qryn ready at http://127.0.0.1:$qryn_port (ClickHouse shim 127.0.0.1:$ch_port) after $((SECONDS - t0)) s; env in $dir/env"
}

load_env() {
  [ -f "$1/env" ] || die "$1/env not found: run '$0 start $1' first"
  set -a
  # shellcheck disable=SC1091
  . "$1/env"
  set +a
  ours "$QRYN_PID" "$QFLAME_FIXTURE_DIR" || die "qryn (pid $QRYN_PID) of $1 is not running"
}

cmd_load() {
  [ $# -ge 5 ] || die "usage: $0 load DIR FILE SERVICE FROM_S UNTIL_S [k=v,...]"
  local dir
  dir="$(cd "$1" && pwd)"
  load_env "$dir"
  [ -f "$2" ] || die "no such profile file: $2"
  local out
  out="$(CH_PORT="$CH_PORT" CH_DB="$CH_DB" QRYN_DIR="$QRYN_DIR" timeout 300 node "$HERE/ingest_profiles_input.js" "$2" "$3" "$4" "$5" "${6:-}")" ||
    { tail -n 20 "$dir/shim.log" >&2; die "loading $2 failed"; }
  echo "$out"
  echo "$out" >>"$dir/loads.jsonl"
}

# Many profiles in one node process (ingest_profiles_input.js --batch): a test's series of 120 profiles.
cmd_load_batch() {
  [ $# -ge 2 ] || die "usage: $0 load-batch DIR LIST"
  local dir
  dir="$(cd "$1" && pwd)"
  load_env "$dir"
  [ -f "$2" ] || die "no such list file: $2"
  local out
  out="$(CH_PORT="$CH_PORT" CH_DB="$CH_DB" QRYN_DIR="$QRYN_DIR" timeout 300 node "$HERE/ingest_profiles_input.js" --batch "$2")" ||
    { tail -n 20 "$dir/shim.log" >&2; die "loading the profiles of $2 failed"; }
  echo "$out"
  echo "$out" >>"$dir/loads.jsonl"
}

# The standard data set the C++ tests assert against (see OBSERVED.md). Windows end 5 and 10 minutes
# before "now" (so a now-1h..now query sees everything), 10 s long like the profiles themselves.
cmd_seed() {
  [ $# -ge 1 ] || die "usage: $0 seed DIR"
  local dir now base_from opt_from
  dir="$(cd "$1" && pwd)"
  now="$(date +%s)"
  base_from=$((now - 600)); opt_from=$((now - 300))
  cmd_load "$dir" "$HERE/profiles/gen__baseline.cpu.pb.gz" svc-base "$base_from" "$((base_from + 10))" version=base,env=ci
  cmd_load "$dir" "$HERE/profiles/gen__heap.pb.gz" svc-base "$base_from" "$((base_from + 10))" version=base,env=ci
  cmd_load "$dir" "$HERE/profiles/gen__optimized.cpu.pb.gz" svc-opt "$opt_from" "$((opt_from + 10))" version=pgo,env=ci
  {
    echo "# written by tests/qryn/qryn-fixture.sh seed"
    echo "SEED_BASE_FROM_S=$base_from"
    echo "SEED_BASE_UNTIL_S=$((base_from + 10))"
    echo "SEED_OPT_FROM_S=$opt_from"
    echo "SEED_OPT_UNTIL_S=$((opt_from + 10))"
  } >"$dir/seed.env"
}

cmd_smoke() {
  [ $# -ge 1 ] || die "usage: $0 smoke DIR [SERVICE [LABEL]]"
  local dir
  dir="$(cd "$1" && pwd)"
  load_env "$dir"
  SMOKE_SERVICE="${2:-${SMOKE_SERVICE:-svc-base}}" SMOKE_LABEL="${3:-${SMOKE_LABEL:-version}}" \
    timeout 120 node "$HERE/query_smoke.js"
}

cmd_observe() {
  [ $# -ge 1 ] || die "usage: $0 observe DIR [AUTH_DIR]"
  local dir auth_url="" auth_login="" auth_pw=""
  dir="$(cd "$1" && pwd)"
  if [ $# -ge 2 ]; then
    (load_env "$(cd "$2" && pwd)") || exit 1
    auth_url="$(. "$2/env"; echo "$QRYN_URL")"
    auth_login="$(. "$2/env"; echo "${QRYN_LOGIN:-}")"
    auth_pw="$(. "$2/env"; echo "${QRYN_PASSWORD:-}")"
  fi
  load_env "$dir"
  [ -f "$dir/seed.env" ] && { set -a; . "$dir/seed.env"; set +a; }
  AUTH_URL="$auth_url" AUTH_LOGIN="$auth_login" AUTH_PASSWORD="$auth_pw" timeout 300 node "$HERE/observe.js"
}

cmd_status() {
  [ $# -ge 1 ] || die "usage: $0 status DIR"
  local dir f pid
  dir="$(cd "$1" && pwd)"
  for f in shim qryn; do
    pid="$(cat "$dir/$f.pid" 2>/dev/null || true)"
    if [ -n "$pid" ] && ours "$pid" "$dir"; then echo "$f: running (pid $pid)"; else echo "$f: not running"; fi
  done
}

# ctest-up DIR: `up` for a CTest fixture (FIXTURES_SETUP). A fixture left running in DIR by a killed run is stopped
# first. Without node/npm (exit 3 of install): when CI is set the tests must not be skipped silently, so it fails;
# otherwise it writes the reason to DIR/skipped (the tests read it and skip) and exits 77, which CTest reports as
# skipped (SKIP_RETURN_CODE).
cmd_ctest_up() {
  [ $# -ge 1 ] || die "usage: $0 ctest-up DIR"
  mkdir -p "$1"
  rm -f "$1/skipped"
  cmd_stop "$1" >/dev/null 2>&1 || true
  local rc=0
  (cmd_install) || rc=$?
  if [ "$rc" = 3 ]; then
    if [ -n "${CI:-}" ] && [ "${CI}" != false ] && [ "${CI}" != 0 ]; then
      say "CI=$CI: the qryn tests must run in CI, so a missing node/npm is a failure"
      exit 1
    fi
    echo "node and npm are not installed (apt-get install -y nodejs npm), so the real-qryn tests are skipped" >"$1/skipped"
    say "SKIPPED: $(cat "$1/skipped")"
    exit 77
  fi
  [ "$rc" = 0 ] || exit "$rc"
  cmd_start "$1"
  cmd_seed "$1"
}

main() {
  local cmd="${1:-}"
  [ $# -gt 0 ] && shift
  case "$cmd" in
    install) cmd_install "$@" ;;
    start) cmd_start "$@" ;;
    load) cmd_load "$@" ;;
    load-batch) cmd_load_batch "$@" ;;
    seed) cmd_seed "$@" ;;
    smoke) cmd_smoke "$@" ;;
    observe) cmd_observe "$@" ;;
    status) cmd_status "$@" ;;
    stop) cmd_stop "$@" ;;
    up) cmd_install && cmd_start "$@" && cmd_seed "$@" ;;
    ctest-up) cmd_ctest_up "$@" ;;
    *) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
}

main "$@"
