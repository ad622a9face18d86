// A C++ view over enzyme_const data whose constructor (not inlined at -O0)
// stores a pointer it computes from its argument (`Data + Offset`, a row of
// a table). What the constructor stores is summarised through the pointer
// arithmetic: the field points into the same enzyme_const memory and has no
// shadow. Before, the summary stopped at the arithmetic, the view got a
// shadow holding the null shadow of the table, and the gradient program
// died reading derivatives through it at -O0.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

struct Row {
  const double *Data;
  long Size;
  Row(const double *Table, long Index, long Width)
      : Data(Table + Index * Width), Size(Width) {}
  double at(long I) const { return Data[I]; }
};

// sum_i x_i * table[row][i], with the table enzyme_const: d/dx_i is the
// table's entry.
double rowDot(const double *X, const double *Table, long Which) {
  Row R(Table, Which, 3);
  double S = 0;
  for (long I = 0; I < R.Size; ++I)
    S += X[I] * X[I] * R.at(I);
  return S;
}

int main() {
  double X[3] = {0.5, -1.25, 2.0};
  double Table[6] = {1, 2, 3, 4, 5, 6};
  double DX[3] = {0, 0, 0};
  __enzyme_autodiff((void *)rowDot, enzyme_dup, X, DX, enzyme_const, Table,
                    enzyme_const, 1L);
  for (int I = 0; I < 3; ++I)
    check_close("reverse", DX[I], 2 * X[I] * Table[3 + I], 1e-12, 1e-12);
  double V[3] = {1, 0, 0};
  double Tangent = __enzyme_fwddiff((void *)rowDot, enzyme_dup, X, V,
                                    enzyme_const, Table, enzyme_const, 1L);
  check_close("forward", Tangent, 2 * X[0] * Table[3], 1e-12, 1e-12);
  return check_done();
}
