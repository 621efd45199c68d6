#!/usr/bin/env bash
# Compiles every runtime/cuda source for sm_75, sm_80 and sm_90 with nvcc,
# warnings as errors. Usage: compile-cuda.sh CUDA_SRC_DIR OUT_DIR
set -euo pipefail
src=$1 out=$2
mkdir -p "$out"
archs=(-gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80
       -gencode arch=compute_90,code=sm_90)
count=0
for f in "$src"/*.cu; do
  nvcc -std=c++17 -O2 -Werror all-warnings "${archs[@]}" -c "$f" \
    -o "$out/$(basename "$f" .cu).o"
  count=$((count + 1))
done
echo "compiled $count CUDA runtime files for sm_75 sm_80 sm_90"
