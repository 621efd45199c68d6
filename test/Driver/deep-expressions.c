// Expressions deeper than the importer's limit are a located error (they
// overflowed the stack: a 10,000-way `?:` chain after ~30 s of quadratic
// work, a 20,000-term sum at once); just below it they compile and run.
// RUN: python3 %S/Inputs/deep-expression.py ternary 10000 > %t.ternary.c
// RUN: not weft compile %t.ternary.c -o %t.out.c 2>&1 | FileCheck %s
// RUN: test ! -e %t.out.c
// RUN: python3 %S/Inputs/deep-expression.py sum 20000 > %t.sum.c
// RUN: not weft compile --target=seq %t.sum.c -o %t.out.c 2>&1 | FileCheck %s
// RUN: python3 %S/Inputs/deep-expression.py sum 990 > %t.ok.c
// RUN: weft compile --target=seq %t.ok.c -o %t.ok.weft.c
// RUN: gcc -O1 %t.ok.c -o %t.ref && %t.ref > %t.ref.out
// RUN: gcc -O1 %t.ok.weft.c -o %t.weft -lm && %t.weft > %t.weft.out
// RUN: cmp %t.ref.out %t.weft.out
// CHECK: :9:{{[0-9]+}}: error: statements and expressions nested more than 1000 levels deep are not supported in a scop region

// Loops nested deeper than the polyhedral model describes (ISL ran for
// minutes on 200) run as written on every rank.
// RUN: python3 %S/Inputs/deep-expression.py loops 21 > %t.loops.c
// RUN: weft compile --report %t.loops.c -o %t.loops.mpi.c 2>&1 | FileCheck %s --check-prefix=LOOPS
// LOOPS: remark: not distributed: not a static control part: the access is inside 21 nested loops (at most 20 are modelled)
