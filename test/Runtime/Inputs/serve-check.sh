#!/usr/bin/env bash
# End-to-end check of the serving runtime (runtime/serve + runtime/cpu):
#
#   bash serve-check.sh SRC_ROOT TMPDIR [SHARED_DATA_DIR]
#
# Builds the runtime and a hand-written stage program (what `weft
# build-model` generates) with mpicxx, writes stage files of a random model,
# runs the pipeline on 1, 2 and 3 ranks and compares the tokens with the
# single-process LlamaSession; then checks errors end cleanly (exit 1, one
# message, no hang). With stories260K in SHARED_DATA_DIR/models, also checks
# 16 greedy tokens of the real model.
set -euo pipefail
src=$1
tmp=$2
shared=${3:-}
in=$src/test/Runtime/Inputs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export WEFT_NUM_THREADS=1 # ranks share two cores
fail() { echo "serve-check: FAIL: $*" >&2; exit 1; }
cxx=(mpicxx -O3 -std=c++17 -pthread -Wall -I"$src/runtime/cpu" -I"$src/runtime/format" -I"$src/runtime/serve" -I"$in")

mkdir -p "$tmp/obj"
ls "$src"/runtime/cpu/*.cpp "$src"/runtime/format/*.cpp "$src"/runtime/serve/*.cpp |
  xargs -P 2 -I{} sh -c '"$@" -c {} -o "'"$tmp"'/obj/$(basename {} .cpp).o"' _ "${cxx[@]}" ||
  fail "the runtime does not compile"
ar rcs "$tmp/libserve.a" "$tmp"/obj/*.o
"${cxx[@]}" "$in/serve_model_tool.cpp" "$tmp/libserve.a" -o "$tmp/tool" || fail "tool"
build() { # NAME STAGES MODEL
  "${cxx[@]}" -DWEFT_TEST_STAGES=$2 -DWEFT_TEST_MODEL="\"$3\"" "$in/serve_harness.cpp" \
    "$tmp/libserve.a" -o "$tmp/$1" || fail "harness $1"
}
for n in 1 2 3; do build serve$n $n tiny; done
echo "serve-check: built"

"$tmp/tool" gen "$tmp/tiny.bin"
"$tmp/tool" stages "$tmp/tiny.bin" "$tmp" tiny
serve() { # STAGES WEIGHTDIR ARGS...
  local n=$1 dir=$2
  shift 2
  timeout 120 mpirun --oversubscribe -np $n "$tmp/serve$n" --weights "$dir" "$@"
}

# Greedy tokens: 3 sequences from 2 prompts of different lengths, micro-
# batches of 2 (the plan's) and of 1 and 3 (overrides).
p1="1 5 9 13 17"
p2="40 2 77"
"$tmp/tool" reference "$tmp/tiny.bin" 12 "$p1" "$p2" "$p1" >"$tmp/ref.txt"
for n in 1 2 3; do
  for mb in "" "--prefill-microbatch 1 --decode-microbatch 3"; do
    serve $n "$tmp/s$n/weights" --prompt "$p1" --prompt "$p2" --batch 3 \
      --max-new-tokens 12 $mb >"$tmp/out.txt" 2>"$tmp/err.txt" ||
      { cat "$tmp/err.txt" >&2; fail "$n stages ($mb) failed"; }
    cmp -s "$tmp/ref.txt" "$tmp/out.txt" ||
      { diff "$tmp/ref.txt" "$tmp/out.txt" >&2; fail "tokens differ on $n stages ($mb)"; }
  done
  echo "serve-check: greedy tokens match LlamaSession on $n stages"
done

# Seeded sampling is the same on every stage count.
for n in 1 3; do
  serve $n "$tmp/s$n/weights" --prompt "$p1" --prompt "$p2" --max-new-tokens 10 \
    --temperature 0.9 --seed 7 >"$tmp/t$n.txt" || fail "sampling on $n stages"
done
cmp -s "$tmp/t1.txt" "$tmp/t3.txt" || fail "sampled tokens differ between 1 and 3 stages"
cmp -s "$tmp/t1.txt" <(head -2 "$tmp/ref.txt") && fail "sampling gave the greedy tokens"
echo "serve-check: seeded sampling agrees on 1 and 3 stages"

# Prompt logits of sequence 0, and the statistics.
serve 2 "$tmp/s2/weights" --prompt "$p1" --prompt "$p2" --logits-out "$tmp/logits.bin" \
  --max-new-tokens 2 --stats >/dev/null 2>"$tmp/stats.txt" || fail "--logits-out"
"$tmp/tool" logits "$tmp/tiny.bin" "$p1" "$tmp/logits.bin"
grep -q "tokens/s" "$tmp/stats.txt" || fail "--stats has no decode rate"
grep "^serve: stage" "$tmp/stats.txt" | sed 's/[0-9]\{2,\} B/N B/g'

# Errors: exit 1, one "serve: error:" line, no hang.
expect_error() { # STAGES NP WEIGHTDIR ARGS...
  local n=$1 np=$2 dir=$3 rc=0
  shift 3
  timeout 60 mpirun --oversubscribe -np $np "$tmp/serve$n" --weights "$dir" "$@" \
    >"$tmp/e.out" 2>"$tmp/e.err" || rc=$?
  [ $rc -eq 1 ] || { cat "$tmp/e.err" >&2; fail "expected exit 1, got $rc for: $*"; }
  [ "$(grep -c 'serve: error:' "$tmp/e.err")" = 1 ] || { cat "$tmp/e.err" >&2; fail "expected one error line for: $*"; }
  grep 'serve: error:' "$tmp/e.err" | sed "s|$tmp|TMP|g"
}
expect_error 3 2 "$tmp/s3/weights" --prompt "$p1"
expect_error 2 2 "$tmp/s2/weights" --prompt "$p1" --bogus
expect_error 2 2 "$tmp/s2/weights" --prompt "$p1" --max-new-tokens
expect_error 2 2 "$tmp/s2/weights" --prompt "1 x 3"
expect_error 2 2 "$tmp/s2/weights" --prompt "1 97 3"
expect_error 2 2 "$tmp/s2/weights" --prompt "$(seq -s ' ' 1 41)"
expect_error 2 2 "$tmp/s2/weights"
expect_error 3 3 "$tmp/s2/weights" --prompt "$p1"
expect_error 2 2 "$tmp/nowhere" --prompt "$p1"
cp -r "$tmp/s2" "$tmp/bad"
head -c 5000 "$tmp/s2/weights/stage1.weft" >"$tmp/bad/weights/stage1.weft"
expect_error 2 2 "$tmp/bad/weights" --prompt "$p1"
build serve-other 2 other
cp "$tmp/serve-other" "$tmp/serve2"
expect_error 2 2 "$tmp/s2/weights" --prompt "$p1"
build serve2 2 tiny

if [ -n "$shared" ] && [ -f "$shared/models/stories260K.bin" ]; then
  for n in 1 2 3; do build stories$n $n stories260K; done
  mkdir -p "$tmp/stories"
  "$tmp/tool" stages "$shared/models/stories260K.bin" "$tmp/stories" stories260K
  prompt="1 403 407 261"
  "$tmp/tool" reference "$shared/models/stories260K.bin" 16 "$prompt" >"$tmp/sref.txt"
  for n in 1 2 3; do
    timeout 120 mpirun --oversubscribe -np $n "$tmp/stories$n" --weights "$tmp/stories/s$n/weights" \
      --prompt "$prompt" --max-new-tokens 16 >"$tmp/sout.txt" || fail "stories260K on $n stages"
    cmp -s "$tmp/sref.txt" "$tmp/sout.txt" ||
      { diff "$tmp/sref.txt" "$tmp/sout.txt" >&2; fail "stories260K tokens differ on $n stages"; }
  done
  echo "serve-check: stories260K: 16 greedy tokens match LlamaSession on 1, 2 and 3 stages"
else
  echo "serve-check: stories260K: 16 greedy tokens match LlamaSession on 1, 2 and 3 stages (skipped: no model)"
fi
echo "serve-check: PASS"
