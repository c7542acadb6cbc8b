#!/usr/bin/env bash
# Checks the man page against the program: every verb that `qflame --help` lists (and `top --url`) has its own
# section, every option it mentions is described, and groff formats the page without a warning.
# usage: packaging/check-man.sh QFLAME_BINARY MAN_PAGE
set -euo pipefail
BIN="${1:?usage: $0 QFLAME_BINARY MAN_PAGE}"
MAN="${2:?usage: $0 QFLAME_BINARY MAN_PAGE}"
command -v groff >/dev/null || { echo "check-man: groff is missing (apt-get install groff-base)"; exit 1; }

verbs="$("$BIN" --help | sed -nE 's/^  qflame ([a-z]+( --url)?) .*/\1/p' | sort -u)"
[ -n "$verbs" ] || { echo "check-man: found no verb in qflame --help"; exit 1; }
checked=0 missing=0
while read -r verb; do
  section="$(printf '%s' "$verb" | sed 's/-/\\\\-/g')"   # the page escapes '-' as '\-'
  if grep -qE "^\.SS \"qflame $section( |\")" "$MAN"; then
    checked=$((checked + 1))
  else
    echo "check-man: qflame $verb is in --help but has no '.SS \"qflame $verb ...\"' section in $MAN"
    missing=$((missing + 1))
  fi
done <<<"$verbs"

# And every option --help mentions (the page writes them as \-\-name).
options=0
while read -r option; do
  if grep -qF -- "$(printf '%s' "$option" | sed 's/-/\\-/g')" "$MAN"; then
    options=$((options + 1))
  else
    echo "check-man: $option is in --help but not in $MAN"
    missing=$((missing + 1))
  fi
done < <("$BIN" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)

warnings="$(groff -man -ww -z "$MAN" 2>&1)"
if [ -n "$warnings" ]; then
  echo "check-man: groff warns: $warnings"
  missing=$((missing + 1))
fi
echo "check-man: $checked verbs ($(echo $verbs | tr '\n' ' ')) and $options options documented, $missing problems"
[ "$missing" -eq 0 ]
