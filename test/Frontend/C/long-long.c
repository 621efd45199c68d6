// RUN: weft compile --target=seq --emit=mlir %s -o - | FileCheck %s
// RUN: weft compile --target=seq %s -o - | FileCheck %s --check-prefix=C

// `long long` and `unsigned long long` are 64-bit like int64_t, which is
// `long` here: C forbids reaching a `long long` through a `long *`, so the
// arguments keep the source's type (weft.c_type, the signed variant) and the
// call's casts use it; `long` and `int` need none.
// CHECK-LABEL: func.func @weft_counts_scop0(
// CHECK-SAME: %{{[a-z0-9]+}}: i32 {weft.c_arg = "n"}
// CHECK-SAME: %{{[a-z0-9]+}}: memref<i64> {weft.c_arg = "&total", weft.c_type = "long long"}
// CHECK-SAME: %{{[a-z0-9]+}}: memref<?xi64> {weft.c_arg = "(long long *)(big)", weft.c_type = "long long"}
// CHECK-SAME: %{{[a-z0-9]+}}: memref<i64> {weft.c_arg = "(long long *)&bits", weft.c_type = "long long"}
// CHECK-SAME: %{{[a-z0-9]+}}: memref<i32> {weft.c_arg = "&n_seen"}
// CHECK-SAME: %{{[a-z0-9]+}}: memref<?xi64> {weft.c_arg = "(int64_t *)(small)", weft.may_alias}

// C: static void weft_counts_scop0(int32_t n, long long *total, long long *big, long long *bits, int32_t *n_seen, int64_t *small) {
// C: weft_counts_scop0(n, &total, (long long *)(big), (long long *)&bits, &n_seen, (int64_t *)(small));
long long counts(int n, long long *restrict big, long small[4]) {
  long long total = 0;
  unsigned long long bits = 0;
  int n_seen = 0;
#pragma scop
  for (int i = 0; i < n; i++) {
    total += big[i];
    bits = bits ^ (unsigned long long)big[i];
    big[i] = big[i] * 2;
    n_seen++;
  }
  for (int i = 0; i < 4; i++)
    small[i] = small[i] + 1;
#pragma endscop
  return total + (long long)bits + n_seen;
}
