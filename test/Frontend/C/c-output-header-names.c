// RUN: weft compile --target=seq %s -o %t.c
// RUN: gcc -std=gnu99 -fsyntax-only %t.c
// REQUIRES: gcc

// weft must not add headers the program does not need: a program that uses
// a name <math.h> or <stdbool.h> declares (here `y1`, a Bessel function in
// glibc's math.h with -std=gnu99) must still build after weft.

double y1[10];
int main(void) {
#pragma scop
  for (int i = 0; i < 10; i++)
    y1[i] = i;
#pragma endscop
  return 0;
}
