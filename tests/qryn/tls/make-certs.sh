#!/usr/bin/env bash
# Regenerates the test-only TLS material of tst_qrynfaults: a CA, and a server certificate for 127.0.0.1 and
# localhost signed by it, valid from 2000 to 2100 (so no machine clock makes them "not yet valid"). Used only by
# the tests against a loopback server; the keys are public on purpose.
set -euo pipefail
cd "$(dirname "$0")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/new"
: >"$work/index.txt"
echo 1000 >"$work/serial"
cat >"$work/ca.cnf" <<CNF
[ca]
default_ca = test
[test]
dir = $work
database = $work/index.txt
new_certs_dir = $work/new
serial = $work/serial
default_md = sha256
policy = any
copy_extensions = copy
unique_subject = no
[any]
commonName = supplied
[ca_ext]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
[server_ext]
basicConstraints = CA:FALSE
subjectAltName = IP:127.0.0.1,DNS:localhost
extendedKeyUsage = serverAuth
CNF
dates=(-startdate 20000101000000Z -enddate 21000101000000Z)
openssl req -new -newkey rsa:2048 -nodes -subj "/CN=qflame test CA" -keyout "$work/ca.key" -out "$work/ca.csr"
openssl ca -batch -config "$work/ca.cnf" -selfsign -keyfile "$work/ca.key" -in "$work/ca.csr" \
  -extensions ca_ext "${dates[@]}" -out ca.pem -notext
openssl req -new -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout server.key -out "$work/server.csr"
openssl ca -batch -config "$work/ca.cnf" -cert ca.pem -keyfile "$work/ca.key" -in "$work/server.csr" \
  -extensions server_ext "${dates[@]}" -out server.pem -notext
