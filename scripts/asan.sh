#!/usr/bin/env bash
# The unit tier (and with it a fuzz slice) against an addon built with
# AddressSanitizer and UndefinedBehaviorSanitizer, over the stand-in driver: no
# GPU needed. The addon is built apart (build-asan/) and loaded through
# node-gyp-build's CUDA_DRIVER_PREBUILD override (it finds build/Debug there); the sanitizer runtime is
# preloaded into every Node process the tests start. Any sanitizer report, from
# any process, fails the run.
#
#   bash scripts/asan.sh [jest args]     default: the unit tier but the fault walk
#
# The fault-injection walk starts a few hundred Node processes, each of which
# loads the sanitizer runtime: minutes each under it. Its own run checks it.
set -euo pipefail
cd "$(dirname "$0")/.."

out=build-asan
npx cmake-js compile --out "$out/build" --debug \
  --CDCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -O1" \
  --CDCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null

logs=$(mktemp -d)
runtime="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
# Node itself is not instrumented: its own allocations are not leaks to report,
# and V8's stack switching confuses use-after-return detection.
export ASAN_OPTIONS="detect_leaks=0:detect_stack_use_after_return=0:log_path=$logs/asan:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:log_path=$logs/ubsan:halt_on_error=1"
export CUDA_DRIVER_PREBUILD="$PWD/$out"
status=0
[ "$#" -gt 0 ] || set -- --testPathIgnorePatterns 'unit/fault-injection'
LD_PRELOAD="${runtime/:/ }" npx jest --selectProjects unit "$@" || status=$?

reports=$(find "$logs" -type f | sort)
if [ -n "$reports" ]; then
  for f in $reports; do echo "== $f"; head -60 "$f"; done
  echo "asan: $(echo "$reports" | wc -l) sanitizer report(s)"
  exit 1
fi
echo "asan: no sanitizer reports"
exit "$status"
