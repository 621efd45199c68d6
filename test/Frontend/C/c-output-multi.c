// RUN: weft compile --target=seq %s -o %t.c
// RUN: grep -v '^// CHECK' %t.c | FileCheck %s
// RUN: %if gcc %{ gcc -std=gnu99 -Wall -Werror %t.c -o %t.exe -lm && %t.exe | FileCheck %s --check-prefix=RUN-OUT %}

// Two regions in one function: both generated functions are placed before
// the function, in order, and each region is replaced by its call; the code
// between the regions and the iterator that is live after the second region
// keep working.

#include <stdio.h>

// CHECK: static void weft_main_scop0(
// CHECK: static void weft_main_scop1(
// CHECK: #line [[@LINE+1]] "{{.*}}c-output-multi.c"
int main(void) {
  double a[8];
  int i, k = 0;
// CHECK-NEXT: int main(void) {
// CHECK-NEXT: double a[8];
// CHECK-NEXT: int i, k = 0;
// CHECK-NEXT: weft_main_scop0((double *)(a));
#pragma scop
  for (int j = 0; j < 8; j++)
    a[j] = j * 0.5;
#pragma endscop
// CHECK-NEXT: #line [[@LINE]] "{{.*}}c-output-multi.c"
  a[0] = 100.0; /* between the regions */
// CHECK-NEXT: a[0] = 100.0; /* between the regions */
// CHECK-NEXT: weft_main_scop1(&i, &k, (double *)(a));
#pragma scop
  for (i = 7; i > 0; i -= 2)
    k += a[i];
#pragma endscop
// CHECK-NEXT: #line [[@LINE]] "{{.*}}c-output-multi.c"
  printf("%g %d %d\n", a[0], k, i);
// RUN-OUT: 100 6 -1
  return 0;
}
