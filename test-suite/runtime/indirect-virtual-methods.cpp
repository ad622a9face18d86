// Virtual methods called on an object passed with enzyme_dup: the call
// through the vtable reaches the derivative of the dynamic type's method,
// and member data gets its adjoint in the shadow object. The shadow object
// is zeroed memory, vtable pointer included: only the primal object's
// vtable decides which method runs.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
#include "Inputs/check.h"
#include <cstring>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
extern int enzyme_dup, enzyme_out;

struct Shape {
  double scale = 2.0;
  virtual double area(double s) const = 0;
  virtual ~Shape() {}
};
struct Square : Shape {
  double area(double s) const override { return scale * s * s; }
};
struct Disc : Shape {
  double area(double s) const override { return scale * 3.0 * s * s * s; }
};

__attribute__((noinline)) double total(const Shape *shape, double s) {
  return shape->area(s) + shape->area(2 * s);
}

int main() {
  Square square;
  Disc disc;
  const Shape *shapes[2] = {&square, &disc};
  for (int k = 0; k < 2; ++k) {
    alignas(Shape) unsigned char storage[sizeof(Square) > sizeof(Disc)
                                             ? sizeof(Square)
                                             : sizeof(Disc)];
    std::memset(storage, 0, sizeof storage); // vtable pointer too
    auto *dshape = reinterpret_cast<Shape *>(storage);
    double s = 1.5;
    double ds = __enzyme_autodiff<double>((void *)total, enzyme_dup, shapes[k],
                                          dshape, enzyme_out, s);
    // Square: scale (s^2 + 4 s^2) = 5 scale s^2;
    // Disc: 3 scale (s^3 + 8 s^3) = 27 scale s^3; scale = 2.
    double want_ds = k == 0 ? 10 * 2.0 * s : 81 * 2.0 * s * s;
    double want_dscale = k == 0 ? 5 * s * s : 27 * s * s * s;
    const Shape &primal = *shapes[k];
    size_t scale_at = reinterpret_cast<const char *>(&primal.scale) -
                      reinterpret_cast<const char *>(&primal);
    double dscale;
    std::memcpy(&dscale, storage + scale_at, sizeof dscale);
    check_close(k ? "disc d/ds" : "square d/ds", ds, want_ds, RTOL_EXACT,
                ATOL_EXACT);
    check_close(k ? "disc d/dscale" : "square d/dscale", dscale, want_dscale,
                RTOL_EXACT, ATOL_EXACT);
  }
  return check_done();
}
