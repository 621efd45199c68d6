// RUN: not weft frobnicate %s 2>&1 | FileCheck %s
// RUN: not weft 2>&1 | FileCheck %s --check-prefix=NOCMD

// An unknown command is reported with the usage text.

// CHECK: weft: error: unknown command 'frobnicate'
// CHECK-NEXT: usage: weft <command> [options]
// CHECK: compile

// NOCMD: usage: weft <command> [options]
