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
#
# The HPC part (issue 18): with POLYBENCH_DIR set (PolyBench/C 4.2.1
# unpacked: utilities/ and the kernel trees), prepare also compiles
# PolyBench kernels with `weft compile --target=cuda` at LARGE into DIR/hpc
# (prepare-hpc alone does only that; HPC_GPU_CHOICE=always puts every nest
# that may run on the GPU there), and run builds each output with nvcc
# and the sequential program with gcc -O3 -march=native, runs both, checks
# the GPU's array dump against the sequential one and appends a markdown
# table to OUT/summary.txt (also OUT/hpc-table.md): region and kernel times,
# achieved GB/s and GFLOP/s against the algorithmic bytes and flops, the
# fraction of the GPU's roofline (peaks from weft's device table) and the
# speed-up over the CPU; where gemm is among the kernels, also cuBLAS's
# DGEMM at its sizes against weft's gemm kernels (scripts/gpu-check-cublas.cu).
# It runs first, within HPC_BUDGET_S (default 180)
# seconds in all (HPC_RUN_TIMEOUT, default 90, per program run); a kernel
# that fails is reported and skipped, never the end of the run. `hpc` runs
# that part alone; --emulate runs it on the CPU through the test-only CUDA
# emulation (g++ -DWEFT_CUDA_EMULATE), for a machine without a GPU
# (test/Runtime/gpu-check-hpc.test, at MINI):
#
#   bash scripts/gpu-check.sh prepare-hpc DIR [--polybench PB] [--dataset D]
#        [--gpu TYPE] [--gpu-choice cost|always] [KERNEL ...]
#   bash scripts/gpu-check.sh hpc DIR OUT [--emulate | --build-only] [--gpu TYPE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "gpu-check: $*" >&2; exit 1; }
summary=/dev/null
note() { echo "$*" | tee -a "$summary"; }

# Open MPI and what it loads (Debian 12); components whose libraries are
# missing (InfiniBand, UCX, libfabric) stay unloaded.
mpi_packages=(libopenmpi3 libopenmpi-dev openmpi-bin openmpi-common libpmix2
  libhwloc15 libevent-core-2.1-7 libevent-pthreads-2.1-7 libmunge2 libudev1)
batch=4 prompt="3 14 15 92 65 35 89 79" new_tokens=16

# --- The HPC part: PolyBench through --target=cuda ---------------------------
hpc_kernels=(jacobi-2d heat-3d fdtd-2d gemm syrk 2mm atax bicg mvt gesummv lu)
hpc_py=$root/scripts/gpu-check-hpc.py

# The device database's name for an nvidia-smi GPU name.
gpu_type() {
  case "$1" in
    *H200*) echo H200 ;; *H100*) echo H100-80GB ;; *A100*80GB*) echo A100-80GB ;;
    *A100*) echo A100-40GB ;; *L4*) echo L4 ;; *T4*) echo T4 ;; *A10*) echo A10 ;;
    *V100*) echo V100-32GB ;; *4090*) echo RTX4090 ;; *3090*) echo RTX3090 ;;
    *) echo "unknown: $1" ;;
  esac
}

# ": " and the first line of FILE that matches (grep's options), if any.
first_match() {
  local line
  line=$(grep -m1 "$@" | cut -c1-120) || true
  [ -z "$line" ] || echo ": $line"
}

# Compiles the kernels with weft into DIR/hpc: each KERNEL/ holds the
# kernel's source, its header printing "%.17g" (exact dumps), the .cu, the
# --report remarks and the dataset's sizes.
prepare_hpc() {
  local dir=$1 pb=${POLYBENCH_DIR:-} dataset=LARGE_DATASET gpu=H100-80GB choice=cost
  shift
  local kernels=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --polybench) pb=$2; shift 2 ;;
      --dataset) dataset=$2; shift 2 ;;
      --gpu) gpu=$2; shift 2 ;;
      --gpu-choice) choice=$2; shift 2 ;;
      -*) die "prepare-hpc: unknown option $1" ;;
      *) kernels+=("$1"); shift ;;
    esac
  done
  [ ${#kernels[@]} -gt 0 ] || kernels=("${hpc_kernels[@]}")
  [ -n "$pb" ] && [ -f "$pb/utilities/polybench.c" ] ||
    die "prepare-hpc: no PolyBench/C 4.2.1 at '$pb' (--polybench DIR or POLYBENCH_DIR)"
  local weft=${WEFT:-$root/build/bin/weft} hpc=$dir/hpc
  command -v "$weft" >/dev/null || die "no $weft (bash scripts/build.sh)"
  local k src d srcs=()
  for k in "${kernels[@]}"; do
    src=$(find "$pb" -path "*/$k/$k.c" | head -1)
    [ -n "$src" ] || die "prepare-hpc: no kernel $k under $pb"
    srcs+=("$src")
  done
  # weft's CUDA output of kernel K in DIR (further weft options after them);
  # a kernel weft cannot compile is reported by run, not here. The cost
  # model chooses and predicts at the dataset's sizes (--size=ni=1000,...:
  # the header's NI by its name in the source) unless --nominal comes
  # first; a name no region uses (heat-3d's TSTEPS is a macro there) is
  # dropped and weft runs again.
  compile_kernel() {
    local d=$1 k=$2 sizes="" name
    shift 2
    rm -f "$d/nominal"
    if [ "${1:-}" = --nominal ]; then
      shift
      touch "$d/nominal" # its predictions are not for the run's sizes
    else
      sizes=$(tr ' ' '\n' <"$d/sizes" | sed -n 's/^\([A-Z0-9_]*\):\([0-9]*\)$/\L\1\E=\2/p' | paste -sd, -)
    fi
    while :; do
      if "$weft" compile --target=cuda --gpu="$gpu" --gpu-choice="$choice" --report \
        ${sizes:+"--size=$sizes"} "$@" \
        -I "$hpc/utilities" -I "$d" -DPOLYBENCH_DUMP_ARRAYS -DPOLYBENCH_TIME \
        "-D$dataset" "$d/$k.c" -o "$d/$k.cu" 2>"$d/report.txt"; then
        return 0
      fi
      name=$(sed -n "s/.* uses a size named '\(.*\)'$/\1/p" "$d/report.txt")
      [ -n "$name" ] && [ -n "$sizes" ] || break
      sizes=$(tr , '\n' <<<"$sizes" | grep -v "^$name=" | paste -sd, -)
    done
    rm -f "$d/$k.cu"
  }
  rm -rf "$hpc" && mkdir -p "$hpc/utilities"
  cp "$pb/utilities/polybench.c" "$pb/utilities/polybench.h" "$hpc/utilities/"
  echo "$dataset" >"$hpc/dataset"
  for src in "${srcs[@]}"; do
    k=$(basename "$src" .c) d=$hpc/$k
    mkdir -p "$d"
    cp "$src" "$d/"
    sed 's/"%0\.2l\?f "/"%.17g "/' "${src%.c}.h" >"$d/$k.h"
    python3 "$hpc_py" sizes "$d/$k.h" "$dataset" >"$d/sizes"
    compile_kernel "$d" "$k"
  done
  # gemm again with the shapes the cost model picks at the nominal 4096^3
  # (gemm+nominal: 4 x 4 elements a thread on an H100) and with up to 8
  # elements a thread along each grid dimension (gemm+rt8,
  # --gpu-register-tile=8: 4 x 8, predicted faster than 4 x 4, whose reads
  # of the tiles bound it), both run at the dataset's sizes: the run
  # measures the three shapes side by side.
  local variants=()
  variant() { # NAME NOTE FLAGS...: gemm+NAME, the table's note NOTE
    local k=gemm+$1 d=$hpc/gemm+$1
    mkdir -p "$d"
    cp "$hpc/gemm/gemm.h" "$hpc/gemm/sizes" "$d/"
    cp "$hpc/gemm/gemm.c" "$d/$k.c"
    echo "$2" >"$d/note"
    shift 2
    compile_kernel "$d" "$k" "$@"
    variants+=("$k")
  }
  if [ -d "$hpc/gemm" ]; then
    variant nominal "shapes for the nominal 4096^3 (weft without --size)" --nominal
    variant rt8 "shapes for the nominal 4096^3, weft --gpu-register-tile=8" --nominal --gpu-register-tile=8
  fi
  echo "prepared the HPC part in $hpc: ${kernels[*]}${variants[*]+ ${variants[*]}} at $dataset (--gpu=$gpu, --gpu-choice=$choice)"
}

# gemm against the vendor library (issue 18: a matrix product at 25 % of
# its FLOP/s): cublasDgemm (scripts/gpu-check-cublas.cu) at gemm's sizes
# SIZES on the same GPU, against the time of weft's kernels in RESULT.
# Built with the nvcc command that follows MODE; run in mode gpu only.
cublas_reference() {
  local sizes=$1 result=$2 work=$3 res=$4 mode=$5
  shift 5
  local ni nj nk line kms
  read -r ni nj nk < <(sed 's/N[IJK]://g' "$sizes")
  if ! "$@" "$root/scripts/gpu-check-cublas.cu" -o "$work/cublas" -lcublas \
    >"$res/cublas-build.log" 2>&1; then
    note "HPC part: gemm against cuBLAS: the reference does not build$(first_match error "$res/cublas-build.log")"
    return 0
  fi
  if [ "$mode" = build ]; then
    note "HPC part: gemm against cuBLAS: the reference built (dry run)"
    return 0
  fi
  if ! line=$(timeout 60 "$work/cublas" "$ni" "$nj" "$nk" 2>&1); then
    note "HPC part: gemm against cuBLAS: the reference failed: $line"
    return 0
  fi
  echo "$line" >"$res/cublas.txt"
  kms=$(sed -n 's/^kernels_ms=//p' "$result" 2>/dev/null)
  note "HPC part: gemm against cuBLAS at ${ni} x ${nj} x ${nk}: $(python3 - "$line" "$ni" "$nj" "$nk" "${kms:-}" <<'EOF'
import sys
line, ni, nj, nk, kms = sys.argv[1], *map(float, sys.argv[2:5]), sys.argv[5]
cublas = float(line.split(", ")[1].split()[0])
text = "cublasDgemm %.4g GFLOP/s" % cublas
if kms:
    weft = 2 * ni * nj * nk / (float(kms) / 1e3) / 1e9
    text += "; weft's kernels %.4g GFLOP/s (2 NI NJ NK flops over their time), %.1f %% of cuBLAS" % (weft, 100 * weft / cublas)
else:
    text += "; weft's gemm did not run"
print(text)
EOF
)"
}

# Builds and runs the kernels of DIR/hpc; mode gpu (nvcc, runs on the GPU),
# emulate (g++ -DWEFT_CUDA_EMULATE, runs on the CPU) or build (nvcc only).
# Appends the table to $summary with note; 1 when a kernel failed.
hpc_part() {
  local dir=$1 out=$2 mode=$3 type=$4 archs=${5:-}
  local hpc=$dir/hpc
  if [ ! -f "$hpc/dataset" ]; then
    note "HPC part: skipped ($dir has no hpc/: prepare with POLYBENCH_DIR set)"
    return 0
  fi
  local dataset work=$dir/hpc-work res=$out/hpc start=$SECONDS
  dataset=$(cat "$hpc/dataset")
  rm -rf "$work" "$res" && mkdir -p "$work" "$res"
  local budget=${HPC_BUDGET_S:-180} limit=${HPC_RUN_TIMEOUT:-90} jobs
  jobs=$(nproc)
  local kernels=() k
  for k in "$hpc"/*/; do
    k=$(basename "$k")
    [ "$k" = utilities ] || kernels+=("$k")
  done

  # Builds, in parallel: polybench.c as C++ (polybench.h has no extern "C")
  # for the CUDA programs, then per kernel the sequential program and weft's.
  local flags=(-DPOLYBENCH_DUMP_ARRAYS -DPOLYBENCH_TIME "-D$dataset" -I "$hpc/utilities")
  local cuda=(nvcc -O3) emulate=""
  local archs_words
  read -r -a archs_words <<<"$archs"
  cuda+=(${archs_words[@]+"${archs_words[@]}"})
  [ "$mode" = emulate ] && { cuda=(g++ -x c++ -O2 -fopenmp -DWEFT_CUDA_EMULATE); emulate=1; }
  g++ -x c++ -O2 "${flags[@]}" -c "$hpc/utilities/polybench.c" -o "$work/polybench.o" \
    >"$res/polybench.log" 2>&1 || note "HPC part: polybench.c does not build as C++"
  hpc_build() {
    local k=$1 d=$hpc/$1 w=$work/$1
    mkdir -p "$w"
    gcc -O3 -march=native "${flags[@]}" -I "$d" "$hpc/utilities/polybench.c" "$d/$k.c" \
      -o "$w/seq" -lm >"$res/$k.seq-build.log" 2>&1 || return 0
    [ -f "$d/$k.cu" ] || return 0
    if [ -n "$emulate" ]; then
      "${cuda[@]}" "${flags[@]}" -I "$d" -c "$d/$k.cu" -o "$w/$k.o" &&
        g++ -fopenmp "$w/$k.o" "$work/polybench.o" -o "$w/cuda" -lm
    else
      "${cuda[@]}" "${flags[@]}" -I "$d" "$d/$k.cu" "$work/polybench.o" -o "$w/cuda" -lm
    fi >"$res/$k.cuda-build.log" 2>&1 || rm -f "$w/cuda"
  }
  local t=$SECONDS
  for k in "${kernels[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    hpc_build "$k" &
  done
  wait
  note "HPC part: built ${#kernels[@]} PolyBench kernels ($dataset, ${cuda[0]}) in $((SECONDS - t)) s"

  # Runs, one at a time (timings), each within the time left.
  local failed=0 r w d status correct cpu region launches kms bus
  time_left() { # the run's limit: HPC_RUN_TIMEOUT or what is left of the budget
    local left=$((budget - (SECONDS - start)))
    echo $((left < limit ? left : limit))
  }
  for k in "${kernels[@]}"; do
    d=$hpc/$k w=$work/$k r=$res/$k.result
    local gpu_nests cost_host carried notes=""
    gpu_nests=$(grep -c 'remark: runs on the device' "$d/report.txt" || true)
    cost_host=$(grep -c 'stays on the host: predicted' "$d/report.txt" || true)
    carried=$(grep -c 'stays on the host: it carries a dependence' "$d/report.txt" || true)
    if [ "$gpu_nests" = 0 ]; then
      notes="no nest on the GPU, the region runs on the host (loops that carry a dependence, reductions among them: $carried; nests the cost model keeps there: $cost_host)"
    elif [ "$cost_host" != 0 ]; then
      notes="nests the cost model keeps on the host: $cost_host"
    fi
    [ ! -f "$d/note" ] || notes="$(cat "$d/note")${notes:+; $notes}"
    status=ok correct="" cpu="" region="" launches="" kms="" bus=""
    if [ ! -f "$d/$k.cu" ]; then
      status="weft failed$(first_match error "$d/report.txt")"
    elif [ ! -x "$w/seq" ]; then
      status="the sequential program does not build"
    elif [ ! -x "$w/cuda" ]; then
      status="weft's output does not build$(first_match error "$res/$k.cuda-build.log")"
    elif [ "$mode" = build ]; then
      status="built (dry run)"
    elif [ "$(time_left)" -le 0 ]; then
      status="skipped: the HPC part's ${budget} s are spent"
    elif ! timeout "$(time_left)" "$w/seq" >"$w/seq.out" 2>"$w/seq.dump"; then
      status="the sequential program failed or ran out of time"
    elif ! WEFT_CUDA_TIMING=1 WEFT_STATS=1 timeout "$(time_left)" "$w/cuda" >"$w/cuda.out" 2>"$w/cuda.err"; then
      status="weft's program failed or ran out of time$(first_match -v '^weft: ' "$w/cuda.err")"
    else
      grep '^weft: ' "$w/cuda.err" >"$res/$k.kernels.txt" || true
      grep -v '^weft: ' "$w/cuda.err" >"$w/cuda.dump" || true
      correct=$(python3 "$hpc_py" compare "$w/seq.dump" "$w/cuda.dump") || status="wrong result"
      cpu=$(head -1 "$w/seq.out") region=$(head -1 "$w/cuda.out")
      launches=$(sed -n 's/^weft: cuda kernels: \([0-9]*\) launch.*/\1/p' "$res/$k.kernels.txt")
      kms=$(sed -n 's/^weft: cuda kernels: .*, \([0-9.e+-]*\) ms$/\1/p' "$res/$k.kernels.txt")
      # The runtime's count of the bytes and copies across the bus (WEFT_STATS).
      bus=$(sed -n 's/^weft: host to device \([0-9]*\) bytes in \([0-9]*\) copies, device to host \([0-9]*\) bytes in \([0-9]*\) copies$/\1:\2:\3:\4/p' "$res/$k.kernels.txt")
    fi
    rm -f "$w/seq.dump" "$w/cuda.dump" "$w/cuda.err" # up to 100 MB each at LARGE
    case "$status" in ok | "built (dry run)") ;; *) failed=1 ;; esac
    {
      echo "kernel=$k"
      echo "sizes=$(cat "$d/sizes")"
      echo "gpu_nests=$gpu_nests"
      echo "status=$status"
      echo "correct=${correct:--}"
      echo "cpu_s=$cpu"
      echo "region_s=$region"
      echo "kernels_ms=$kms"
      [ -f "$d/nominal" ] || echo "predicted_s=$(python3 "$hpc_py" predicted "$d/report.txt")"
      echo "launches=$launches"
      echo "bus=$bus"
      echo "notes=$notes"
    } >"$r"
    note "  $k: $status${correct:+, correct: $correct}${region:+, region $region s, CPU $cpu s}"
  done
  if [ -z "$emulate" ] && [ -f "$hpc/gemm/sizes" ]; then
    cublas_reference "$hpc/gemm/sizes" "$res/gemm.result" "$work" "$res" \
      "$mode" "${cuda[@]}"
  fi
  python3 "$hpc_py" table "$res" "$root/lib/CostModel/Device.cpp" "$type" \
    ${emulate:+--emulated} >"$out/hpc-table.md" ||
    { note "HPC part: no table (see above)"; return 1; }
  { echo; cat "$out/hpc-table.md"; echo; } >>"$summary"
  note "HPC part: $([ $failed = 0 ] && echo "every kernel ok" || echo "a kernel FAILED") in $((SECONDS - start)) s; the table is in $out/hpc-table.md"
  return $failed
}

# --- The commands -----------------------------------------------------------
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
  if [ -n "${POLYBENCH_DIR:-}" ]; then
    prepare_hpc "$dir" ${HPC_GPU_CHOICE:+--gpu-choice "$HPC_GPU_CHOICE"}
  else
    echo "no POLYBENCH_DIR: run will skip the HPC part"
  fi
  echo "prepared $dir ($(du -sh "$dir" | cut -f1)): carry it to the GPU machine"
}

run() {
  local dir=$1 out=$2 dry=${3:-}
  [ -d "$dir/cuda" ] && [ -d "$dir/debs" ] || die "$dir: not prepared (gpu-check.sh prepare)"
  mkdir -p "$out"
  dir=$(cd "$dir" && pwd) out=$(cd "$out" && pwd) # make -C changes directory
  summary=$out/summary.txt
  local start=$SECONDS
  : >"$summary"
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

  gpu="" archs=""
  [ -n "$dry" ] || find_gpu
  note "nvcc: $(nvcc --version | tail -1)"
  # The HPC part first: a failure of the serving part cannot lose it.
  local hpc_ok=1
  hpc_part "$dir" "$out" "$([ -n "$dry" ] && echo build || echo gpu)" \
    "$([ -n "$gpu" ] && gpu_type "$gpu" || echo H100-80GB)" "$archs" || hpc_ok=0
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
    [ $hpc_ok = 1 ]
    return
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
  gpu_type "$gpu" >"$out/gpu-type"
  [ $hpc_ok = 1 ] || ok=0
  note "gpu-check: $([ $ok = 1 ] && echo PASS || echo FAIL) in $((SECONDS - start)) s"
  [ $ok = 1 ]
}

# The GPU's name ($gpu) and nvcc's -gencode for it ($archs); dies without one.
find_gpu() {
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1) ||
    die "no GPU (nvidia-smi failed); use --dry-run (run) or --emulate (hpc)"
  local cc
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  archs="-gencode arch=compute_$cc,code=sm_$cc"
  note "GPU: $gpu (sm_$cc), driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
}

# The HPC part alone: on this machine's GPU, --emulate on its CPU, or
# --build-only (nvcc, nothing run).
hpc() {
  local dir=$1 out=$2 mode=gpu type=""
  shift 2
  while [ $# -gt 0 ]; do
    case "$1" in
      --emulate) mode=emulate; shift ;;
      --build-only) mode=build; shift ;;
      --gpu) type=$2; shift 2 ;;
      *) die "hpc: unknown option $1" ;;
    esac
  done
  [ -f "$dir/hpc/dataset" ] || die "$dir: no HPC part (gpu-check.sh prepare-hpc)"
  mkdir -p "$out"
  dir=$(cd "$dir" && pwd) out=$(cd "$out" && pwd)
  summary=$out/summary.txt
  : >"$summary"
  note "weft gpu-check, HPC part, $(date -u +%Y-%m-%dT%H:%MZ), $(uname -n)"
  gpu="" archs=""
  if [ $mode != emulate ]; then
    command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
    command -v nvcc >/dev/null || die "no nvcc"
  fi
  if [ $mode = gpu ]; then
    find_gpu
    type=${type:-$(gpu_type "$gpu")}
  fi
  # (Called in a condition, so that no failing command stops it: set -e.)
  hpc_part "$dir" "$out" $mode "${type:-H100-80GB}" "$archs" || return 1
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
  prepare-hpc) [ $# -ge 2 ] || die "usage: gpu-check.sh prepare-hpc DIR [options] [KERNEL ...]"
       shift; prepare_hpc "$@" ;;
  hpc) [ $# -ge 3 ] || die "usage: gpu-check.sh hpc DIR OUT [--emulate | --build-only] [--gpu TYPE]"
       shift; hpc "$@" ;;
  run) [ $# -ge 3 ] || die "usage: gpu-check.sh run DIR OUT [--dry-run]"
       [ -z "${4:-}" ] || [ "$4" = --dry-run ] || die "unknown option $4"
       run "$2" "$3" "${4:-}" ;;
  fit) [ $# -ge 2 ] || die "usage: gpu-check.sh fit OUT [PROFILE.json]"; shift; fit "$@" ;;
  *) die "usage: gpu-check.sh prepare [DIR] | run DIR OUT [--dry-run] | fit OUT [PROFILE.json] | prepare-hpc DIR [options] [KERNEL ...] | hpc DIR OUT [--emulate | --build-only] [--gpu TYPE]" ;;
esac
