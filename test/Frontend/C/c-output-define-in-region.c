// RUN: weft compile --target=seq %s -o %t.c
// RUN: grep -v '^//' %t.c | FileCheck %s
// RUN: %if gcc %{ gcc -std=gnu99 -fsyntax-only %t.c %}

// Preprocessor directives inside a region are kept in the output after the
// call, so a macro defined in the region is still defined for the code
// after it.

// CHECK: {{^}}weft_main_scop0(
// CHECK-NEXT: {{^}}#define M 3
// CHECK-NEXT: #line
// CHECK-NEXT: return M;
double A[10];
int main(void) {
#pragma scop
#define M 3
  for (int i = 0; i < 10; i++)
    A[i] = M;
#pragma endscop
  return M;
}
