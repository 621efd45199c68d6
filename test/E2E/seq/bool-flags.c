// RUN: bash %S/../run-seq.sh %s %t
// RUN: WEFT_TARGET=cuda bash %S/../run-seq.sh %s %t.cuda
// RUN: bash %S/../run-mpi.sh %s %t
// _Bool arrays and short-circuit conditions on them.
#include <stdio.h>
_Bool flag[8];
int main(void) {
  int i, cnt = 0;
  double x[8];
  for (i = 0; i < 8; i++) x[i] = i - 3.5;
#pragma scop
  for (i = 0; i < 8; i++) {
    flag[i] = x[i] > 0;
    if (flag[i] && x[i] < 3)
      cnt += 1;
  }
#pragma endscop
  for (i = 0; i < 8; i++) printf("%d", flag[i]);
  printf(" %d\n", cnt);
  return 0;
}
