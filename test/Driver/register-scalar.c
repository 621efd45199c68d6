// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c
// RUN: weft compile --target=seq -DREAD_ONLY %s -o %t.ok.c

// A `register` scalar that a region writes would have to be passed by
// address, which C forbids, so it is an error at its declaration. Reading
// one (passed by value) is fine.

int main(void) {
// CHECK: register-scalar.c:[[@LINE+6]]:5: error: register variable 'r' is written in the scop region; its address cannot be taken, so it is not supported
  register int r = 0;
  double A[10];
#pragma scop
  for (int i = 0; i < 10; i++) {
#ifndef READ_ONLY
    r += i;
#endif
    A[i] = r;
  }
#pragma endscop
  return r;
}
// CHECK: 1 error generated.
