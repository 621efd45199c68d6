#!/usr/bin/env bash
# Compiles every runtime/cuda source for sm_75, sm_80 and sm_90 with nvcc,
# warnings as errors. The serving backend (weft_rt_cuda_serve.cu) also needs
# the CPU runtime's and the serving library's headers, next to runtime/cuda.
# Usage: compile-cuda.sh CUDA_SRC_DIR OUT_DIR
set -euo pipefail
src=$1 out=$2
mkdir -p "$out"
archs=(-gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80
       -gencode arch=compute_90,code=sm_90)
includes=(-I "$src" -I "$src/../cpu" -I "$src/../format" -I "$src/../serve")
count=0
for f in "$src"/*.cu; do
  nvcc -std=c++17 -O2 -Werror all-warnings "${archs[@]}" "${includes[@]}" \
    -c "$f" -o "$out/$(basename "$f" .cu).o"
  echo "compiled $(basename "$f")"
  count=$((count + 1))
done
echo "compiled $count CUDA runtime files for sm_75 sm_80 sm_90"
