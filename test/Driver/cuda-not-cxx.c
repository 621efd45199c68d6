// RUN: rm -f %t.cu && not weft compile --target=cuda %s -o %t.cu 2>&1 | FileCheck %s
// RUN: test ! -e %t.cu

// --target=cuda writes C++: C that is not C++ outside the regions, and that
// weft cannot rewrite, is an error at its location (and nothing is written).

#define NEW_BUFFER(p) double *p = malloc(64)
void *malloc(unsigned long);

// CHECK: cuda-not-cxx.c:[[@LINE+1]]:12: error: 'class' is a keyword in C++, which --target=cuda writes: rename it
static int class;

// CHECK: cuda-not-cxx.c:[[@LINE+1]]:5: error: a function defined without a prototype (K&R style) is not C++: write its parameter types
int old(a) int a; { return a; }

void f(int n, double A[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = A[i] * 2;
#pragma endscop
}

int main(void) {
// CHECK: cuda-not-cxx.c:[[@LINE+1]]:3: error: this conversion needs a cast to 'double *' in C++, and it is inside a macro: write the cast
  NEW_BUFFER(x);
// CHECK: cuda-not-cxx.c:[[@LINE+1]]:3: error: 'undeclared' is called without a declaration, which C++ does not allow: declare it
  undeclared(x);
  f(8, x);
  return class + old(1);
}
