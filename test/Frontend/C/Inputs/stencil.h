/* Helper header for macros.c (lit does not run files under Inputs/). */
#define COEF 0.25
#define AVG(A, i, j) \
  (COEF * ((A)[(i) - 1][(j)] + (A)[(i) + 1][(j)] + (A)[(i)][(j) - 1] + (A)[(i)][(j) + 1]))
