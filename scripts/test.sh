#!/usr/bin/env bash
# make test: its phases in turn, each timed, stopping at the first that fails; then, also after a
# failure, the phase table and the counts of what the checks checked (harness/src/cli/test-summary.ts),
# so that a cut that drops a check shows. Phase times, lanes and counts: results/test-run/.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
run="$PWD/results/test-run"
rm -rf "$run"
mkdir -p "$run"
export FAIRBENCH_TEST_RUN="$run"

phase() {
  local name=$1 started rc
  shift
  started=$(date +%s.%N)
  "$@"
  rc=$?
  printf '%s\t%s\t%s\t%s\n' "$name" "$started" "$(date +%s.%N)" "$rc" >> "$run/phases.tsv"
  return "$rc"
}

status=0
phase set-up make --no-print-directory setup &&
  phase lint make --no-print-directory lint &&
  phase images make --no-print-directory images-if-possible &&
  phase harness-tests make --no-print-directory harness-tests &&
  phase checks node conformance/src/cli/checks.ts ||
  status=$?
# Node is set-up's: without it (set-up failed) there is no summary to print.
if command -v node > /dev/null; then node harness/src/cli/test-summary.ts "$run" "$status" || true; fi
exit "$status"
