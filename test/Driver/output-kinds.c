// Where -o points decides how weft writes, as for a C compiler: standard
// output for '-', through a device or FIFO (never replacing it), through a
// symbolic link to its target (the link stays), and never over an input.
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: weft compile --target=seq %s -o - | grep -v '^// OUT' | FileCheck %s --check-prefix=OUT
// RUN: weft compile --target=seq %s -o /dev/null
// RUN: test -c /dev/null
// RUN: mkfifo %t.d/fifo
// RUN: cat %t.d/fifo > %t.d/from-fifo & weft compile --target=seq %s -o %t.d/fifo; wait
// RUN: test -p %t.d/fifo
// RUN: grep -v '^// OUT' %t.d/from-fifo | FileCheck %s --check-prefix=OUT
// RUN: echo old > %t.d/target.c && ln -s target.c %t.d/link.c
// RUN: weft compile --target=seq %s -o %t.d/link.c
// RUN: test -L %t.d/link.c
// RUN: grep -v '^// OUT' %t.d/target.c | FileCheck %s --check-prefix=OUT
// RUN: ln -s missing.c %t.d/dangling.c
// RUN: weft compile --target=seq %s -o %t.d/dangling.c
// RUN: test -L %t.d/dangling.c && grep -v '^// OUT' %t.d/missing.c | FileCheck %s --check-prefix=OUT
// RUN: cp %s %t.d/in.c && ln -s in.c %t.d/in-link.c
// RUN: not weft compile --target=seq %t.d/in.c -o %t.d/in.c 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: not weft compile --target=seq %t.d/in.c -o %t.d/in-link.c 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: cmp %s %t.d/in.c
// RUN: ls %t.d | not grep tmp

// OUT: static void weft_f_scop0(
// SAME: weft: error: output file '{{.*}}in{{(-link)?}}.c' is the input file '{{.*}}in.c'

void f(int n, double A[10]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = 1.0;
#pragma endscop
}
