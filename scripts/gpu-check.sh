#!/usr/bin/env bash
# The GPU check: weft's CUDA serving program and CUDA kernel profile on a
# machine with an NVIDIA GPU and nvcc but no network, package manager, MPI
# or LLVM (weft itself cannot run there), in three steps:
#
#   bash scripts/gpu-check.sh prepare [DIR]     # here, with build/bin
#   bash scripts/gpu-check.sh run DIR OUT [--dry-run]   # on the GPU machine
#   bash scripts/gpu-check.sh fit OUT [PROFILE.json]    # here again
#
# prepare (default DIR: .gpu-check, git-ignored, a few tens of MB) writes
# what the GPU machine needs: the CUDA serving program of a small random
# LLaMA (dim 256, 8 layers, a mixed 16/8/4/3-bit plan: its serve.cpp,
# Makefile and stage file, from `weft build-model --target=cuda`), the
# tokens and logits the CPU program of the same plan generates here, the
# Makefile of weft-kernel-bench for CUDA (`weft cost profile --target=cuda
# --write-only`), and Debian 12's Open MPI packages (`apt-get download`),
# which run unpacks with `dpkg -x` because the GPU machine has no MPI.
#
# run builds the serving runtime from this checkout's runtime/ with
# runtime/Makefile (no CMake or LLVM needed; nvcc for the GPU it finds)
# into DIR/rt, links both programs against it, checks that the CUDA
# program generates the CPU program's tokens and logits, runs the kernel
# benchmark, and writes OUT/summary.txt, OUT/samples.json, OUT/gpu-type and
# the serving program's output; about 3 minutes on an H200 (nvcc
# dominates). --dry-run builds everything and runs nothing that needs a GPU
# (a machine without one).
#
# fit turns OUT/samples.json into the measured CUDA profile with
# `weft cost profile --samples` (default PROFILE.json:
# examples/llm/profiles/weft-cuda-<gpu>-<date>.json).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "gpu-check: $*" >&2; exit 1; }

# Open MPI and what it loads (Debian 12); components whose libraries are
# missing (InfiniBand, UCX, libfabric) stay unloaded.
mpi_packages=(libopenmpi3 libopenmpi-dev openmpi-bin openmpi-common libpmix2
  libhwloc15 libevent-core-2.1-7 libevent-pthreads-2.1-7 libmunge2 libudev1)
batch=4 prompt="3 14 15 92 65 35 89 79" new_tokens=16

prepare() {
  local dir=${1:-$root/.gpu-check}
  export PATH=$root/build/bin:$PATH
  command -v weft >/dev/null || die "no build/bin/weft (bash scripts/build.sh)"
  command -v mpirun >/dev/null || die "prepare runs the CPU program: needs mpirun"
  rm -rf "$dir" && mkdir -p "$dir"/debs
  source "$root/test/Serve/Inputs/serve-lib.sh"
  weft-llama-ref random "$dir/m.bin" 256,688,8,8,4,2048,256 untied 7
  plan "$dir/plan.json" --model m --prefill-mb 2 --decode-mb 2 --batch "$batch" \
    --prompt-len 8 --gen-len "$new_tokens" 0-8:16,8,4,3,16,8,4,3
  weft build-model --plan "$dir/plan.json" --weights "$dir/m.bin" \
    -o "$dir/cuda" --target=cuda >/dev/null
  build "$dir/plan.json" "$dir/m.bin" "$dir/cpu" >/dev/null
  serve 1 "$dir/cpu" --prompt "$prompt" --batch "$batch" \
    --max-new-tokens "$new_tokens" --logits-out "$dir/reference.f32" \
    >"$dir/reference.tokens"
  weft cost profile --target=cuda --device H200 --write-only \
    --build-dir "$dir/bench" >/dev/null
  rm -rf "$dir/cpu" "$dir/cpu.make.log" "$dir/m.bin" # built and run here only
  (cd "$dir/debs" && apt-get download "${mpi_packages[@]}" >/dev/null 2>&1) ||
    die "apt-get download of Open MPI failed (needs Debian's package registry)"
  cp "$root/test/Serve/Inputs/logits.py" "$dir/"
  echo "prepared $dir ($(du -sh "$dir" | cut -f1)): carry it to the GPU machine"
}

run() {
  local dir=$1 out=$2 dry=${3:-}
  [ -d "$dir/cuda" ] && [ -d "$dir/debs" ] || die "$dir: not prepared (gpu-check.sh prepare)"
  mkdir -p "$out"
  dir=$(cd "$dir" && pwd) out=$(cd "$out" && pwd) # make -C changes directory
  local summary=$out/summary.txt start=$SECONDS
  : >"$summary"
  note() { echo "$*" | tee -a "$summary"; }
  note "weft gpu-check, $(date -u +%Y-%m-%dT%H:%MZ), $(uname -n)"

  # Open MPI from the Debian packages, relocated with OPAL_PREFIX.
  local mpi=$dir/mpi
  rm -rf "$mpi" && mkdir -p "$mpi"
  for f in "$dir"/debs/*.deb; do dpkg -x "$f" "$mpi"; done
  local lib=$mpi/usr/lib/x86_64-linux-gnu
  export OPAL_PREFIX=$mpi/usr PATH=$mpi/usr/bin:$PATH
  export LD_LIBRARY_PATH=$lib:$lib/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_mca_base_component_show_load_errors=0
  # The wrapper compilers' data assumes /usr; compile against the unpacked
  # headers and library directly.
  export MPICXX="g++ -I$lib/openmpi/include"
  export LDLIBS="-L$lib -Wl,-rpath,$lib -l:libmpi.so.40"
  command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
  command -v nvcc >/dev/null || die "no nvcc"

  local gpu="" archs=""
  if [ -z "$dry" ]; then
    gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1) ||
      die "no GPU (nvidia-smi failed); use --dry-run"
    local cc
    cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
    archs="-gencode arch=compute_$cc,code=sm_$cc"
    note "GPU: $gpu (sm_$cc), driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
  fi
  note "nvcc: $(nvcc --version | tail -1)"
  local jobs
  jobs=$(nproc)
  local t=$SECONDS
  make -s -j"$jobs" -C "$root/runtime" OUT="$dir/rt" cuda ${archs:+CUDA_ARCHS="$archs"} \
    >"$out/build-runtime.log" 2>&1 ||
    { tail -30 "$out/build-runtime.log"; die "building the serving runtime failed"; }
  note "built the serving runtime (CPU and CUDA) in $((SECONDS - t)) s"
  t=$SECONDS
  make -s -C "$dir/cuda" WEFT_RUNTIME="$dir/rt" >"$out/build-serve.log" 2>&1 ||
    { tail -30 "$out/build-serve.log"; die "building the CUDA serving program failed"; }
  make -s -C "$dir/bench" WEFT_RUNTIME="$dir/rt" >"$out/build-bench.log" 2>&1 ||
    { tail -30 "$out/build-bench.log"; die "building the CUDA kernel benchmark failed"; }
  note "built the CUDA serving program and weft-kernel-bench in $((SECONDS - t)) s"
  if [ -n "$dry" ]; then
    note "dry run: built, nothing run (no GPU needed); $((SECONDS - start)) s"
    return 0
  fi

  t=$SECONDS
  # dpkg -x does not make the alternatives link /usr/bin/mpirun.
  timeout 300 "$mpi/usr/bin/mpirun.openmpi" -np 1 "$dir/cuda/serve" --prompt "$prompt" --batch "$batch" \
    --max-new-tokens "$new_tokens" --logits-out "$out/cuda.f32" --stats \
    >"$out/cuda.tokens" 2>"$out/serve-stats.txt" ||
    { cat "$out/serve-stats.txt"; die "the CUDA serving program failed"; }
  note "serve (CUDA, 1 stage, mixed 16/8/4/3 bits, batch $batch): $((SECONDS - t)) s"
  sed 's/^/  /' "$out/serve-stats.txt" | tee -a "$summary"
  local ok=1
  if cmp -s "$dir/reference.tokens" "$out/cuda.tokens"; then
    note "tokens: identical to the CPU program's ($batch sequences x $new_tokens)"
  else
    note "tokens: DIFFER from the CPU program's"
    ok=0
  fi
  if python3 "$dir/logits.py" "$dir/reference.f32" "$out/cuda.f32" 2048 0.02 \
    >"$out/logits.txt"; then
    note "logits: $(cat "$out/logits.txt") (within 2% of the largest)"
  else
    note "logits: $(cat "$out/logits.txt") (NOT within 2% of the largest)"
    ok=0
  fi

  t=$SECONDS
  "$dir/bench/weft-kernel-bench" --out "$out/samples.json" --repeats 5 ||
    die "weft-kernel-bench failed"
  note "weft-kernel-bench: $(grep -c '"part"' "$out/samples.json") samples in $((SECONDS - t)) s"
  # The device database's name for this GPU (fit names the profile by it).
  case "$gpu" in
    *H200*) echo H200 ;; *H100*) echo H100-80GB ;; *A100*80GB*) echo A100-80GB ;;
    *A100*) echo A100-40GB ;; *L4*) echo L4 ;; *T4*) echo T4 ;; *A10*) echo A10 ;;
    *V100*) echo V100-32GB ;; *4090*) echo RTX4090 ;; *3090*) echo RTX3090 ;;
    *) echo "unknown: $gpu" ;;
  esac >"$out/gpu-type"
  note "gpu-check: $([ $ok = 1 ] && echo PASS || echo FAIL) in $((SECONDS - start)) s"
  [ $ok = 1 ]
}

fit() {
  local out=$1 type profile
  type=$(cat "$out/gpu-type") || die "$out: no gpu-type (gpu-check.sh run)"
  profile=${2:-$root/examples/llm/profiles/weft-cuda-$(echo "$type" | tr 'A-Z' 'a-z')-$(date +%Y-%m-%d).json}
  "$root/build/bin/weft" cost profile --target=cuda --device "$type" \
    --samples "$out/samples.json" --name "weft-cuda-$(echo "$type" | tr 'A-Z' 'a-z')" \
    -o "$profile"
}

case "${1:-}" in
  prepare) shift; prepare "$@" ;;
  run) [ $# -ge 3 ] || die "usage: gpu-check.sh run DIR OUT [--dry-run]"
       [ -z "${4:-}" ] || [ "$4" = --dry-run ] || die "unknown option $4"
       run "$2" "$3" "${4:-}" ;;
  fit) [ $# -ge 2 ] || die "usage: gpu-check.sh fit OUT [PROFILE.json]"; shift; fit "$@" ;;
  *) die "usage: gpu-check.sh prepare [DIR] | run DIR OUT [--dry-run] | fit OUT [PROFILE.json]" ;;
esac
