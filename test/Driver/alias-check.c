// RUN: weft compile --report %s -o %t.c 2>&1 | FileCheck %s
// RUN: grep -v '^// OUT' %t.c | FileCheck %s --check-prefix=OUT
// RUN: weft compile --report --live-out=all %s -o %t.all.c 2>&1 | FileCheck %s --check-prefix=ALL
// ALL: remark: arguments checked for overlap at entry (a and b): the region runs as written on every rank when they overlap
// RUN: weft compile --target=seq %s -o %t.seq.c
// RUN: grep -v '^// SEQ' %t.seq.c | FileCheck %s --check-prefix=SEQ

// (The checks spell names with {{}} so that they do not match themselves
// in the output, which keeps the comments.)
// --report names the regions that check their pointer arguments for
// overlap at entry; restrict pointers, distinct arrays and
// `#pragma weft noalias` need no check. The sequential target runs every
// region as written and needs none either.

#define N 512
double X[N], Y[N];

// CHECK: alias-check.c:[[@LINE+23]]:1: remark: arguments checked for overlap at entry (a and b): the region runs as written on rank 0 when they overlap
// The region as written for overlapping arguments keeps plain pointers;
// the sequential form (one rank) and the distributed form (several) run
// only on arguments that do not overlap, so theirs are restrict; the
// dispatcher runs the region as written on rank 0 when they overlap.
// OUT: static WEFT_RT_AS_WRITTEN void {{weft_}}copy_scop0_overlapping(int32_t n, double *a, double *b) {
// OUT: static WEFT_RT_AS_WRITTEN void {{weft_}}copy_scop0_sequential(int32_t n, double *restrict a, double *restrict b) {
// OUT: static WEFT_RT_REGION void {{weft_}}copy_scop0_distributed(int32_t n, double *restrict a, double *restrict b) {
// OUT: static void {{weft_}}copy_scop0(int32_t n, double *a, double *b) {
// OUT-NEXT: bool ranges_overlap = {{weft_}}rt_ranges_overlap(a, 0, (int64_t)n, 8, b, 0, (int64_t)n, 8);
// OUT-NEXT: if (ranges_overlap) {
// OUT-NEXT: int64_t self = {{weft_}}rt_self();
// OUT-NEXT: if (self == 0) {
// OUT-NEXT: {{weft_}}copy_scop0_overlapping(n, a, b);
// OUT-NEXT: }
// OUT-NEXT: {{weft_}}rt_set_replicas_stale();
// OUT-NEXT: } else {
// OUT-NEXT: int64_t nranks = {{weft_}}rt_nranks();
// OUT-NEXT: if (nranks == 1) {
// OUT-NEXT: {{weft_}}copy_scop0_sequential(n, a, b);
// OUT-NEXT: } else {
// OUT-NEXT: {{weft_}}copy_scop0_distributed(n, a, b);
void copy(int n, double *a, double *b) {
#pragma scop
#pragma weft distribute(i: block)
  for (int i = 0; i < n; i++)
    a[i] = b[i] + 1.0;
#pragma endscop
}

// CHECK-NOT: remark: arguments checked
// OUT-NOT: {{weft_}}promised_scop0_overlapping
// OUT-NOT: {{weft_}}promised_scop0_sequential
// OUT: static void {{weft_}}promised_scop0(int32_t n, double *restrict a, double *restrict b) {
void promised(int n, double *restrict a, double *restrict b) {
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = b[i] + 1.0;
#pragma endscop
}

// OUT-NOT: {{weft_}}asserted_scop0_sequential
// OUT: static void {{weft_}}asserted_scop0(int32_t n, double *restrict a, double *restrict b) {
void asserted(int n, double *a, double *b) {
#pragma weft noalias
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = b[i] + 1.0;
#pragma endscop
}

// OUT-NOT: {{weft_}}objects_scop0_sequential
// OUT-NOT: {{weft_}}replicated_scop0_sequential
// OUT: static void {{weft_}}objects_scop0(double *restrict X, double *restrict Y) {
void objects(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    X[i] = Y[i] + 1.0;
#pragma endscop
}

// A region nothing distributed keeps its check, which now chooses between
// the region as written (plain pointers, which may overlap) and the same
// loops through restrict pointers (dist-fold-alias-checks): no rank count
// is asked. Rank 0 alone runs it (dist-run-on-root), the other ranks' copies
// marked stale.
// CHECK: alias-check.c:[[@LINE+21]]:1: remark: arguments checked for overlap at entry (a and b): the region runs as written when they overlap
// CHECK: alias-check.c:[[@LINE+20]]:1: remark: runs on rank 0 alone, nothing in it being distributed
// OUT-NOT: {{weft_}}replicated_scop0_distributed
// OUT: static WEFT_RT_AS_WRITTEN void {{weft_}}replicated_scop0_overlapping(int32_t n, double *a, double *b) {
// OUT: static WEFT_RT_AS_WRITTEN void {{weft_}}replicated_scop0_sequential(int32_t n, double *restrict a, double *restrict b) {
// OUT: static void {{weft_}}replicated_scop0_rank0(int32_t n, double *a, double *b) {
// OUT-NEXT: bool ranges_overlap = {{weft_}}rt_ranges_overlap(a, 0, (int64_t)n, 8, b, 0, (int64_t)n, 8);
// OUT-NEXT: if (ranges_overlap) {
// OUT-NEXT: {{weft_}}replicated_scop0_overlapping(n, a, b);
// OUT-NEXT: } else {
// OUT-NEXT: {{weft_}}replicated_scop0_sequential(n, a, b);
// OUT-NEXT: }
// OUT-NEXT: }
// OUT: static void {{weft_}}replicated_scop0(int32_t n, double *a, double *b) {
// OUT-NEXT: int64_t self = {{weft_}}rt_self();
// OUT-NEXT: if (self == 0) {
// OUT-NEXT: {{weft_}}replicated_scop0_rank0(n, a, b);
// OUT-NEXT: }
// OUT-NEXT: {{weft_}}rt_set_replicas_stale();
// OUT-NEXT: }
void replicated(int n, double *a, double *b) {
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = b[i] + 1.0;
#pragma endscop
}

// SEQ-NOT: {{weft_}}rt_ranges_overlap
// SEQ-NOT: {{weft_[a-z]+_scop[0-9]+_sequential}}
// SEQ-NOT: {{weft_[a-z]+_scop[0-9]+_overlapping}}
