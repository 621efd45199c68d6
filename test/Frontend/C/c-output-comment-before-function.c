// RUN: weft compile --target=seq %s -o %t.c
// RUN: %if gcc %{ gcc -std=gnu99 -Werror=implicit-function-declaration -fsyntax-only %t.c %}
// RUN: grep -v '^// CHECK' %t.c | FileCheck %s

// The generated function goes right before the enclosing function, even
// when the function's line starts inside a block comment.

// CHECK: ends on the function's line */
// CHECK-NEXT: #line {{[0-9]+}} "{{.*}}c-output-comment-before-function.c.tmp.c"
// CHECK-NEXT: static void weft_f_scop0(
// CHECK: #line [[@LINE+4]] "{{.*}}c-output-comment-before-function.c"
// CHECK-NEXT: {{^ +}}void f(int n) {
double A[10];
/* a comment that
   ends on the function's line */ void f(int n) {
#pragma scop
  A[0] = n;
#pragma endscop
}
