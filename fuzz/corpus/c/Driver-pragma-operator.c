// RUN: rm -f %t.c && not weft compile --target=seq %s -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// weft replaces region text line by line, so its pragmas must be '#pragma'
// lines: the _Pragma operator (directly or from a macro) is rejected.

#define END_SCOP _Pragma("endscop")

void f(double A[10]) {
// CHECK: pragma-operator.c:[[@LINE+1]]:3: error: weft pragmas must be written as '#pragma' lines, not with the _Pragma operator
  _Pragma("scop")
  A[0] = 1.0;
// CHECK: pragma-operator.c:[[@LINE+1]]:3: error: weft pragmas must be written as '#pragma' lines
  END_SCOP
}
// CHECK: 2 errors generated.
