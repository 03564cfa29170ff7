#!/usr/bin/env bash
# Runs every scenario file once (`ziosim run FILE --json`) and fails if any run
# fails: a non-zero exit, an empty output, or (when python3 is present) output
# that is not one JSON object with a non-empty "runs" list.
#
#   scenarios/check.sh [ZIOSIM]        # default: $ZIOSIM, else build/ziosim
#
# Prints one line per file with its host time. Exit status: 0 all passed, 1 some
# failed, 2 no ziosim binary.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
zio="${1:-${ZIOSIM:-}}"
if [ -z "$zio" ]; then
  for cand in "$root/build/ziosim"; do
    if [ -x "$cand" ]; then zio="$cand"; break; fi
  done
fi
if [ -z "$zio" ] || ! [ -x "$zio" ]; then
  echo "check.sh: no ziosim binary (pass one as the first argument or set ZIOSIM)" >&2
  exit 2
fi
have_py=0
command -v python3 >/dev/null 2>&1 && have_py=1

out="$(mktemp)"
err="$(mktemp)"
trap 'rm -f "$out" "$err"' EXIT
failed=()
n=0
start_all=$(date +%s.%N)
while IFS= read -r f; do
  n=$((n + 1))
  rel="${f#"$root"/}"
  t0=$(date +%s.%N)
  if "$zio" run "$f" --json >"$out" 2>"$err"; then
    ok=1
    if ! [ -s "$out" ]; then
      ok=0; echo "empty output" >"$err"
    elif [ "$have_py" = 1 ] && ! python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, dict) and d.get("runs"), "no runs in the JSON"
' "$out" 2>"$err"; then
      ok=0
    fi
  else
    ok=0
  fi
  t1=$(date +%s.%N)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  if [ "$ok" = 1 ]; then
    printf 'ok    %6ss  %s\n' "$secs" "$rel"
  else
    printf 'FAIL  %6ss  %s: %s\n' "$secs" "$rel" "$(tail -n 3 "$err" | tr '\n' ' ')"
    failed+=("$rel")
  fi
done < <(find "$here" -name '*.toml' -type f | LC_ALL=C sort)
total=$(awk -v a="$start_all" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
if [ "$n" = 0 ]; then
  echo "check.sh: no scenario files under $here" >&2
  exit 1
fi
if [ "${#failed[@]}" -gt 0 ]; then
  echo "check.sh: ${#failed[@]} of $n scenario files failed (${total}s):" >&2
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "check.sh: all $n scenario files ran (${total}s)"
