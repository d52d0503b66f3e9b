#!/usr/bin/env bash
# The GPU tier under NVIDIA's compute-sanitizer, on a GPU host:
#   memcheck   out-of-bounds and misaligned device accesses, hardware exceptions
#              and (--leak-check full) device memory never freed (allocations
#              still held when a process exits are counted apart), over a
#              representative set of GPU test files (every kernel the tests ship,
#              the fuzzer's bad input, lifetimes, workers), the test process and
#              every child it starts (--target-processes all);
#   racecheck  shared-memory hazards, over the test files that launch kernels.
# Driver errors the tests provoke on purpose are not reported (the tests check
# them); every sanitizer error counts. Prints one line per tool and a final line
# with the totals; exits non-zero on any sanitizer error or failed test.
#
#   bash scripts/sanitize.sh [test file ...]   files (test/gpu/*.test.ts) for both tools
#
#   SANITIZER                  the compute-sanitizer binary (default: on PATH, else
#                              $CUDA_PATH/bin, else /usr/local/cuda/bin)
#   SANITIZE_TOOLS             default "memcheck racecheck"
#   SANITIZE_MEMCHECK_TESTS    test files for memcheck (default below)
#   SANITIZE_RACECHECK_TESTS   test files for racecheck (default below)
#   SANITIZE_LEAK_CHECK        full | no (default full)
#   SANITIZE_OUT               where the logs go (default a new temporary directory)
# Under the sanitizer the fuzzer runs FUZZ_RUNS=2 and the workers WORKERS_ROUNDS=5
# unless those are set.
set -u
cd "$(dirname "$0")/.."

sanitizer="${SANITIZER:-$(command -v compute-sanitizer || true)}"
for candidate in "${CUDA_PATH:-/usr/local/cuda}/bin/compute-sanitizer" /usr/local/cuda/bin/compute-sanitizer; do
  [ -n "$sanitizer" ] || { [ -x "$candidate" ] && sanitizer="$candidate"; }
done
if [ -z "$sanitizer" ]; then
  echo "sanitize: compute-sanitizer not found (set SANITIZER, or CUDA_PATH to the CUDA toolkit)" >&2
  exit 2
fi

memcheck_tests="${SANITIZE_MEMCHECK_TESTS:-device stream memory kernel nvrtc graph capture vmm ipc lifetime workers examples fuzz}"
racecheck_tests="${SANITIZE_RACECHECK_TESTS:-kernel nvrtc graph lifetime workers}"
if [ "$#" -gt 0 ]; then
  memcheck_tests="$*"
  racecheck_tests="$*"
fi
out="${SANITIZE_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/cuda-driver-sanitize.XXXXXX")}"
mkdir -p "$out"

# Test names (kernel, test/gpu/kernel.test.ts) as the paths jest matches.
paths() {
  for t in $1; do
    case "$t" in
      */*) echo "$t" ;;
      *) echo "test/gpu/$t.test.ts" ;;
    esac
  done
}

# Options this compute-sanitizer knows (older ones lack some).
help="$("$sanitizer" --help 2>&1)"
known() { grep -q -- "$1" <<<"$help"; }
common=(--target-processes all --error-exitcode 86)
known --print-limit && common+=(--print-limit 100)
known --report-api-errors && common+=(--report-api-errors no)
known --check-exit-code && common+=(--check-exit-code no)
known --require-cuda-init && common+=(--require-cuda-init no)

npx tsc -p tsconfig.build.json && node scripts/gen-esm.js || { echo "sanitize: the build failed" >&2; exit 2; }

# SANITIZING tells the tests that launches run one at a time here (nothing is in flight for long).
export FUZZ_RUNS="${FUZZ_RUNS:-2}" FUZZ_MIN_CALLS="${FUZZ_MIN_CALLS:-0}" WORKERS_ROUNDS="${WORKERS_ROUNDS:-5}" SANITIZING=1
total_errors=0
failed_tests=0
summary=()

# run TOOL "test names" EXTRA-OPTIONS...
run() {
  local tool="$1" tests="$2"
  shift 2
  local started=$SECONDS
  # shellcheck disable=SC2046
  "$sanitizer" --tool "$tool" "${common[@]}" "$@" --log-file "$out/$tool.%p.log" \
    node node_modules/jest/bin/jest.js --selectProjects gpu --runInBand --testTimeout 900000 \
    --json --outputFile "$out/$tool.jest.json" $(paths "$tests") > "$out/$tool.out" 2>&1
  local status=$?
  # Each sanitized process writes its own log; add up their summaries.
  local errors warnings processes
  # memcheck: "ERROR SUMMARY: 0 errors"; racecheck: "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)".
  local pattern='s/.*ERROR SUMMARY: ([0-9]+) errors?.*/\1/p'
  [ "$tool" = racecheck ] && pattern='s/.*RACECHECK SUMMARY: .*\(([0-9]+) errors?, .*/\1/p'
  errors=$(cat "$out/$tool".*.log 2>/dev/null | sed -n -E "$pattern" | awk '{s+=$1} END {print s+0}')
  # memcheck counts each allocation still held at exit as an error. Test children
  # that end holding memory leave it to the driver, as the library does at exit
  # (the soak and fuzz accounting are the leak checks): those are counted apart.
  local held
  held=$(cat "$out/$tool".*.log 2>/dev/null | sed -n -E 's/.*LEAK SUMMARY: [0-9]+ bytes leaked in ([0-9]+) allocations?.*/\1/p' | awk '{s+=$1} END {print s+0}')
  errors=$((errors - held))
  warnings=$(cat "$out/$tool".*.log 2>/dev/null | sed -n -E 's/.*RACECHECK SUMMARY: .*, ([0-9]+) warnings?\).*/\1/p' | awk '{s+=$1} END {print s+0}')
  processes=$(ls "$out/$tool".*.log 2>/dev/null | wc -l)
  local failed
  failed=$(node -e "try { const r = require(process.argv[1]); console.log(r.numFailedTests + r.numRuntimeErrorTestSuites) } catch { console.log(-1) }" "$out/$tool.jest.json")
  if [ "$failed" = "-1" ]; then
    echo "sanitize: $tool: jest left no results (status $status); see $out/$tool.out" >&2
    failed=1
  fi
  # The sanitizer's exit code counts held allocations too: it decides only where no summary was found.
  if [ "$status" -eq 86 ] && ! cat "$out/$tool".*.log 2>/dev/null | grep -q 'SUMMARY:'; then errors=1; fi
  total_errors=$((total_errors + errors))
  failed_tests=$((failed_tests + failed))
  local line="$tool: $errors errors"
  [ "$tool" = memcheck ] && line="$line, $held allocations held at exit"
  [ "$tool" = racecheck ] && line="$line, $warnings hazard warnings"
  line="$line in $processes processes, $failed failed tests, $((SECONDS - started)) s [$(echo $tests)]"
  echo "sanitize: $line"
  summary+=("$tool $errors")
}

for tool in ${SANITIZE_TOOLS:-memcheck racecheck}; do
  case "$tool" in
    memcheck) run memcheck "$memcheck_tests" --leak-check "${SANITIZE_LEAK_CHECK:-full}" ;;
    racecheck) run racecheck "$racecheck_tests" ;;
    *) echo "sanitize: unknown tool $tool" >&2; exit 2 ;;
  esac
done

echo "sanitize: logs in $out"
echo "sanitize: $total_errors sanitizer errors ($(IFS=,; echo "${summary[*]}" | sed 's/,/, /g')), $failed_tests failed tests"
[ "$total_errors" -eq 0 ] && [ "$failed_tests" -eq 0 ]
