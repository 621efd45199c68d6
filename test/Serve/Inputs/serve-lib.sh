# Sourced by the serving tests: build a plan into a program and run it.
set -euo pipefail
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
# Generated programs compile serve.cpp and link the runtime built with weft.
MPICXX=mpicxx
if command -v ccache >/dev/null; then MPICXX="ccache mpicxx"; fi
inputs=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

plan() { python3 "$inputs/make-plan.py" "$@"; }

# build PLAN WEIGHTS DIR [build-model options]: weft build-model, then make.
build() {
  local plan=$1 weights=$2 dir=$3
  shift 3
  weft build-model --plan "$plan" --weights "$weights" -o "$dir" "$@"
  make -s -j2 -C "$dir" MPICXX="$MPICXX" >"$dir.make.log" 2>&1 ||
    { cat "$dir.make.log" >&2; return 1; }
}

# serve NP DIR ARGS...: the program under mpirun.
serve() {
  local np=$1 dir=$2
  shift 2
  timeout 300 mpirun --oversubscribe -np "$np" "$dir/serve" "$@"
}

fail() { echo "$(basename "$0" .sh): FAIL: $*" >&2; exit 1; }

# check_fp16_splits DIR WEIGHTS MODEL LAYERS STAGES EXPECTED ARGS...: fp16
# plans over 1..STAGES stages (odd micro-batch sizes) print EXPECTED.
check_fp16_splits() {
  local t=$1 weights=$2 model=$3 layers=$4 most=$5 expected=$6
  shift 6
  local last=$((layers - 1))
  local splits=("0-$layers:16" "0-2:16 2-$layers:16" "0-1:16 1-3:16 3-$layers:16"
                "0-1:16 1-2:16 2-$last:16 $last-$layers:16")
  local mbs=("1 1" "2 3" "3 2" "1 2")
  local i n pmb dmb stages
  for ((i = 0; i < most; i++)); do
    read -r -a stages <<<"${splits[$i]}"
    read -r pmb dmb <<<"${mbs[$i]}"
    n=${#stages[@]}
    plan "$t/p$n.json" --model "$model" --prefill-mb "$pmb" --decode-mb "$dmb" "${stages[@]}"
    build "$t/p$n.json" "$weights" "$t/s$n"
    serve "$n" "$t/s$n" "$@" >"$t/out$n" || fail "$n stages: serve failed"
    cmp -s "$expected" "$t/out$n" ||
      { diff "$expected" "$t/out$n" >&2; fail "$n stages (fp16) differ from the reference"; }
    echo "fp16 on $n stages (micro-batches $pmb/$dmb): reference tokens"
  done
}

# check_mixed_bits DIR WEIGHTS MODEL LAYERS ARGS...: the same per-layer
# widths over 1 or 3 stages give the same tokens and logits to the last bit.
check_mixed_bits() {
  local t=$1 weights=$2 model=$3 layers=$4
  shift 4
  local bits=(8 4 3 16 8 4 3 16) n
  local mixed
  mixed=$(IFS=,; echo "${bits[*]:0:$layers}")
  plan "$t/q1.json" --model "$model" --prefill-mb 2 --decode-mb 2 "0-$layers:$mixed"
  plan "$t/q3.json" --model "$model" --prefill-mb 1 --decode-mb 3 \
    "0-1:${bits[0]}" "1-3:${bits[1]},${bits[2]}" \
    "3-$layers:$(IFS=,; echo "${bits[*]:3:$((layers - 3))}")"
  for n in 1 3; do
    build "$t/q$n.json" "$weights" "$t/q$n"
    serve "$n" "$t/q$n" "$@" --logits-out "$t/q$n.f32" >"$t/qout$n" ||
      fail "mixed bits on $n stages: serve failed"
  done
  cmp -s "$t/qout1" "$t/qout3" || fail "mixed bits: 3 stages generate other tokens than 1"
  cmp -s "$t/q1.f32" "$t/q3.f32" || fail "mixed bits: 3 stages give other logits than 1"
  echo "mixed bits $mixed: 1 and 3 stages agree bit for bit"
}
