// Programs written for Enzyme's shadow-vtable ABI build the shadow object's
// vtable from __enzyme_virtualreverse entries. Here calls through pointers
// dispatch on the primal object's vtable, so such a shadow vtable is never
// read; the program compiles unchanged and gets the right gradient.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <cstring>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
extern "C" void *__enzyme_virtualreverse(void *);
extern int enzyme_dup, enzyme_out;

struct Model {
  double k = 3.0;
  virtual double energy(double x) const { return k * x * x; }
  virtual ~Model() {}
};

__attribute__((noinline)) double total(const Model *m, double x) {
  return m->energy(x) + m->energy(x / 2);
}

// What an Enzyme user writes: a table of shadow entries for the shadow
// object's vtable (its layout is the user's business).
static void *shadow_vtable[2] = {
    __enzyme_virtualreverse((void *)0),
    __enzyme_virtualreverse(reinterpret_cast<void *>(&total))};

int main() {
  Model m, dm;
  dm.k = 0;
  // Point the shadow object's vtable pointer at the user's table.
  void *table = shadow_vtable;
  std::memcpy(static_cast<void *>(&dm), &table, sizeof table);
  double x = 0.8;
  double dx = __enzyme_autodiff<double>((void *)total, enzyme_dup, &m, &dm,
                                        enzyme_out, x);
  check_close("d/dx", dx, 2 * 3.0 * x + 3.0 * x / 2, RTOL_EXACT, ATOL_EXACT);
  check_close("d/dk", dm.k, x * x + x * x / 4, RTOL_EXACT, ATOL_EXACT);
  return check_done();
}
