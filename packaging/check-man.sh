#!/usr/bin/env bash
# Checks a man page (the generated or the installed one) against the program: every form of every verb the
# program's verb table holds (`qflame --list-options`: "FORM<TAB>OPTION" lines) has its own section, every option
# of a form is described in that form's section, and groff formats the page without a warning.
# usage: packaging/check-man.sh QFLAME_BINARY MAN_PAGE (gzip-compressed or not)
set -euo pipefail
BIN="${1:?usage: $0 QFLAME_BINARY MAN_PAGE}"
MAN="${2:?usage: $0 QFLAME_BINARY MAN_PAGE}"
command -v groff >/dev/null || { echo "check-man: groff is missing (apt-get install groff-base)"; exit 1; }
PAGE="$(mktemp)"
trap 'rm -f "$PAGE"' EXIT
if [[ "$MAN" == *.gz ]]; then gzip -dc "$MAN" >"$PAGE"; else cp "$MAN" "$PAGE"; fi

list="$("$BIN" --list-options)"
[ -n "$list" ] || { echo "check-man: qflame --list-options lists nothing"; exit 1; }
escape() { printf '%s' "$1" | sed 's/-/\\-/g'; }   # the page writes '-' as '\-'
forms=0 options=0 missing=0
while read -r form; do
  title="$(escape "$form")"
  # The form's section: from its .SS line to the next .SS or .SH.
  section="$(awk -v t=".SS \"$title\"" '$0 == t {on = 1; next} /^\.S[SH] / {on = 0} on' "$PAGE")"
  if [ -z "$section" ]; then
    echo "check-man: '$form' is in the program's verb table but has no '.SS \"$form\"' section in $MAN"
    missing=$((missing + 1))
    continue
  fi
  forms=$((forms + 1))
  while IFS=$'\t' read -r _ option; do
    if grep -qF -- "\\fB$(escape "$option")\\fR" <<<"$section"; then
      options=$((options + 1))
    else
      echo "check-man: $form $option is in the program's verb table but not in its section of $MAN"
      missing=$((missing + 1))
    fi
  done < <(awk -F'\t' -v f="$form" '$1 == f' <<<"$list")
done < <(cut -f1 <<<"$list" | uniq)

warnings="$(groff -man -ww -z "$PAGE" 2>&1)"
if [ -n "$warnings" ]; then
  echo "check-man: groff warns: $warnings"
  missing=$((missing + 1))
fi
echo "check-man: $forms verb forms and $options options documented, $missing problems"
[ "$missing" -eq 0 ]
