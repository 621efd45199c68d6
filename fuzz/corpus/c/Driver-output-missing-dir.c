// RUN: rm -rf %t.dir
// RUN: not weft compile --target=seq %s -o %t.dir/out.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.dir
// RUN: mkdir -p %t.dir && not weft compile --target=seq %s -o %t.dir 2>&1 | FileCheck %s --check-prefix=ISDIR
// RUN: test -d %t.dir && not ls %t.dir/* 2>/dev/null

// The output file cannot be created: weft reports it and does not create
// directories, leaves no temporary file behind and does not replace a
// directory.

// CHECK: weft: error: cannot write '{{.*}}.dir/out.c': No such file or directory
// ISDIR: weft: error: cannot write '{{.*}}.dir'

void f(int n, double A[10]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = 1.0;
#pragma endscop
}
