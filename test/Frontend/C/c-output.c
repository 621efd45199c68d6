// RUN: weft compile --target=seq %s -o - | grep -v '^// CHECK' | FileCheck %s
// RUN: weft compile --target=seq --emit=c %s -o %t.c
// RUN: grep -v '^// CHECK' %t.c | FileCheck %s
// RUN: %if gcc %{ gcc -std=gnu99 -fsyntax-only -Wall -Werror %t.c %}
// The region functions are lines of the output itself: each `#line` naming
// it gives the next line its own number there (and there is one).
// RUN: awk '/^#line [0-9]+ ".*c-output.c.tmp.c"$/ { n++; if ($2 != NR + 1) exit 1 } END { exit n == 0 }' %t.c

// --target=seq writes C: the input with each region replaced by a call to a
// generated `static void` function defined just before the enclosing
// function. `#line` directives give the text after the splices its original
// line numbers, and the generated functions their lines in the output. (The
// CHECK comments are echoed into the output, so the RUN lines drop them
// before FileCheck.)

// CHECK: #include <stdint.h>
// CHECK: #line 1 "{{.*}}c-output.c"
// CHECK-NEXT: // RUN: weft compile --target=seq %s -o -

#include <stdio.h>

static double table[16];

// The generated function comes right before `scale`, after the text above.
// CHECK: #include <stdio.h>
// CHECK: static double table[16];
// A global and a local cannot overlap: their pointers are restrict. The
// function keeps the source's names and expressions; a scalar the region
// writes is passed by address.
// CHECK: static void weft_scale_scop0(int32_t n, double *restrict table, double f, int32_t *restrict count) {
// CHECK-NEXT: for (int i = 0; i < n; i++) {
// CHECK-NEXT: table[i] *= f;
// CHECK-NEXT: count[0] += 1;
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: #line [[@LINE+1]] "{{.*}}c-output.c"
void scale(int n, double f) {
  int count = 0; /* before the region */
// CHECK-NEXT: void scale(int n, double f) {
// CHECK-NEXT: int count = 0; /* before the region */
// CHECK-NEXT: weft_scale_scop0(n, (double *)(table), f, &count);
#pragma scop
  for (int i = 0; i < n; i++) {
    table[i] = table[i] * f;
    count++;
  }
#pragma endscop
// CHECK-NEXT: #line [[@LINE]] "{{.*}}c-output.c"
  printf("%d\n", count); /* after the region */
// CHECK-NEXT: printf("%d\n", count); /* after the region */
// CHECK-NEXT: }
}

// CHECK-NOT: weft_
// CHECK: int main(void) {
int main(void) {
  scale(16, 2.0);
  return 0;
}
