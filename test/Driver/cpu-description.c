// RUN: weft compile --report --ranks 1 --nominal-size 1000000 %s -o %t.c 2>&1 | FileCheck %s --check-prefix=BUILTIN
// RUN: weft compile --report --ranks 1 --nominal-size 1000000 --cpu=%S/Inputs/cpu-slow-memory.json %s -o %t.c 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: weft compile --report --ranks 4 --nominal-size 1000000 --cpu=%S/Inputs/cpu-slow-memory.json %s -o %t.c 2>&1 | FileCheck %s --check-prefix=NODE
// RUN: weft compile --target=cuda --report --nominal-size 1000000 %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: weft compile --target=cuda --report --nominal-size 1000000 --cpu=%S/Inputs/cpu-slow-memory.json %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=CUDA-OWN
// RUN: rm -f %t.bad.c && not weft compile --cpu=%S/Inputs/cpu-bad-field.json %s -o %t.bad.c 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: test ! -e %t.bad.c
// RUN: not weft compile --cpu=%t.missing.json %s -o %t.bad.c 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not weft compile --cpu=A100 %s -o %t.bad.c 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: test ! -e %t.bad.c

// --cpu takes a CPU description (bench/cpu-core.c --json) in place of the
// built-in `cpu` device: here one that reads memory at 10 GB/s a core
// where `cpu` reads 30, and 12 GB/s for its node of 4 cores (so that 4
// ranks on it read 3 GB/s each). The sweep reads A and writes B, 16 MB
// at n = 10^6 that no cache holds: 0.533 ms on `cpu`, 1.60 ms on this CPU.
// Four ranks on its node read their 4 MB each at 3 GB/s, 1.33 ms (and the
// gather of B, 0.12 ms): split, the sweep gains 9 %, not 4 times.

double A[1000000], B[1000000];

void smooth(int n) {
  int i;
#pragma scop
// BUILTIN: cpu-description.c:[[@LINE+3]]:3: remark: not distributed: distributing it is predicted to be slower (predicted region time at 1 ranks 5.33e-04 s;
// OWN: cpu-description.c:[[@LINE+2]]:3: remark: not distributed: distributing it is predicted to be slower (predicted region time at 1 ranks 1.60e-03 s;
// NODE: cpu-description.c:[[@LINE+1]]:3: remark: distributed: blocks of its iterations on each rank (predicted region time at 4 ranks 1.45e-03 s; 1.60e-03 s if replicated)
  for (i = 1; i < n - 1; i++)
    B[i] = A[i - 1] + A[i] + A[i + 1];
#pragma endscop
}
// The CUDA targets' host side is that CPU too: on `cpu` the sweep stays
// on the host (its copies cost more than it), on the slower one it moves.
// CUDA: remark: stays on the host: predicted 533 us on the CPU against 677 us on the device
// CUDA-OWN: remark: runs on the device: {{.*}} predicted 677 us on the device {{.*}} against 1.6 ms on the CPU
// FIELD: weft compile: error: --cpu: {{.*}}cpu-bad-field.json: memory_read_GBps: expected a positive number
// MISSING: weft compile: error: --cpu: {{.*}}.missing.json: cannot read: 
// GPU: weft compile: error: --cpu must be 'cpu' or a CPU description FILE.json, got 'A100'
