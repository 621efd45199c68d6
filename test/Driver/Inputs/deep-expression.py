"""Writes a C file whose scop region holds one very deep expression.

    deep-expression.py KIND N   KIND: ternary (a chain of N `?:`), sum
                                (N terms, a left-leaning tree N deep) or
                                loops (N nested loops around one update)
"""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
if kind == "loops":
    ivs = ", ".join(f"i{k}" for k in range(n))
    loops = "".join("  " * k + f"for (i{k} = 0; i{k} < 2; i{k}++)\n"
                    for k in range(n))
    print(f"""#include <stdio.h>
double A[1];
int main(void) {{
  int {ivs};
#pragma scop
{loops}{"  " * n}A[0] = A[0] + 1.0;
#pragma endscop
  printf("%g\\n", A[0]);
  return 0;
}}""")
    sys.exit(0)
if kind == "ternary":
    expr = " : ".join(f"(i == {k}) ? {k}.0" for k in range(n)) + " : 0.0"
else:
    expr = " + ".join(f"A[{k % 100}]" for k in range(n))
print(f"""#include <stdio.h>
double A[100], B[100];
int main(void) {{
  int i;
  for (i = 0; i < 100; i++)
    A[i] = i * 0.5;
#pragma scop
  for (i = 0; i < 100; i++)
    B[i] = {expr};
#pragma endscop
  double t = 0;
  for (i = 0; i < 100; i++)
    t += B[i];
  printf("%.17g\\n", t);
  return 0;
}}""")
