// RUN: rm -f %t.c && not weft compile --target=seq %t.missing.c -o %t.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.c

// A missing input file is reported by the driver, before Clang runs.

// CHECK: weft: error: no such file: '{{.*}}.missing.c'
// CHECK-NOT: error
