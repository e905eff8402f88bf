#!/usr/bin/env bash
# The "Last runs" of FUZZING.md: each target to a million executions, one after the other,
# one libFuzzer process at a time, at the lowest priority (a shared 2-core machine).
#
#   bash rust/reversis-core/fuzz/run_fuzzers.sh [TARGET...]      # default: all three
#
# Works on stable Rust: --sanitizer none needs nothing more, SANITIZER=address needs the
# RUSTC_BOOTSTRAP=1 set below (it lets stable take cargo-fuzz's -Z flags); with a nightly
# toolchain TOOLCHAIN=+nightly. SANITIZER is none by default (see FUZZING.md, "Which build");
# EXTRA=-a adds debug assertions and overflow checks; RUNS overrides the count.
# A target whose corpus, fuzz/corpus/<target>/ (ignored by git), is missing or empty gets it
# written first by seed_corpora.py, run with $PYTHON (python3 by default), which needs the
# reversis package. Logs go to fuzz/logs/<target>.log (ignored by git); new inputs to the corpus
# and crashes to fuzz/artifacts/<target>/. Minimize with `cargo fuzz cmin` (FUZZING.md).
set -euo pipefail
cd "$(dirname "$0")"
export RUSTC_BOOTSTRAP=1
TOOLCHAIN=${TOOLCHAIN:-}
SANITIZER=${SANITIZER:-none}
RUNS=${RUNS:-1000000}
EXTRA=${EXTRA:-}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ruleset_json record_bytes game_actions)

# Longest input per target: past these the inputs only get slower, not new (see FUZZING.md).
declare -A max_len=([ruleset_json]=4096 [record_bytes]=8192 [game_actions]=256)

unseeded=()
for target in "${targets[@]}"; do
    [ -n "$(ls -A "corpus/$target" 2>/dev/null)" ] || unseeded+=("$target")
done
if [ ${#unseeded[@]} -gt 0 ]; then
    echo "== corpus of ${unseeded[*]} missing: seed_corpora.py writes it"
    "${PYTHON:-python3}" seed_corpora.py "${unseeded[@]}"
fi

mkdir -p logs
nice -n 19 cargo $TOOLCHAIN fuzz build -O $EXTRA --sanitizer "$SANITIZER"
for target in "${targets[@]}"; do
    echo "== $target: $RUNS runs, -max_len=${max_len[$target]}, sanitizer $SANITIZER"
    start=$(date +%s)
    nice -n 19 cargo $TOOLCHAIN fuzz run -O $EXTRA --sanitizer "$SANITIZER" "$target" -- \
        -runs="$RUNS" -max_len="${max_len[$target]}" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 >"logs/$target.log" 2>&1 || status=$?
    echo "   exit ${status:-0} after $(( $(date +%s) - start )) s; last lines of logs/$target.log:"
    grep -E '^#[0-9]+ +(INITED|DONE)|^stat::|^Done|ERROR|SUMMARY' "logs/$target.log" | tail -12
    unset status
done
