// std::complex<float> and std::complex<long double>: inline arithmetic
// (products and quotients fall back to __mulsc3/__divsc3/__mulxc3/__divxc3)
// with std::abs, arg, exp, log, pow and sqrt (libstdc++ forwards them to the
// C99 float and long double complex functions). Reverse and forward mode
// against an analytic holomorphic derivative and central differences.
// At -O0 the operators copy complex<long double> with memcpy, whose adjoint
// must move x86_fp80 elements (it moved doubles: garbage).
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O3 -march=x86-64-v3 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"

#include <complex>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_fwddiff(Args...);
extern int enzyme_const;

template <typename T> struct Grad2 {
  T dx, dy;
};

/* g(z) = exp(z) z + log(z) / z + sqrt(z) + z^(0.5+0.2i): holomorphic. */
template <typename T> std::complex<T> g(std::complex<T> z) {
  using C = std::complex<T>;
  return std::exp(z) * z + std::log(z) / z + std::sqrt(z) +
         std::pow(z, C(0.5, 0.2));
}
static std::complex<long double> gPrime(std::complex<long double> z) {
  std::complex<long double> w(0.5, 0.2);
  return std::exp(z) * (z + 1.0L) + (1.0L - std::log(z)) / (z * z) +
         0.5L / std::sqrt(z) + w * std::pow(z, w) / z;
}

/* Part 0: Re g, 1: Im g, 2: |g(z)| + arg(z). */
template <typename T> T f(T x, T y, int part) {
  std::complex<T> z(x, y), r = g(z);
  if (part == 0)
    return r.real();
  if (part == 1)
    return r.imag();
  return std::abs(r) + std::arg(z);
}

static int Part;
static double fV(const double *v, void *) {
  return (double)f<long double>(v[0], v[1], Part);
}

int main() {
  const double pts[2][2] = {{0.8, 0.5}, {-1.1, 0.6}};
  char name[80];
  for (auto &pt : pts) {
    double x = pt[0], y = pt[1];
    double v[2] = {x, y};
    std::complex<long double> z(x, y), d = gPrime(z), gz = g(z);
    for (int part = 0; part < 3; ++part) {
      Part = part;
      double fx = fd_partial(fV, v, 2, 0, nullptr);
      double fy = fd_partial(fV, v, 2, 1, nullptr);
      double ax, ay;
      if (part == 0) {
        ax = d.real();
        ay = -d.imag();
      } else if (part == 1) {
        ax = d.imag();
        ay = d.real();
      } else {
        /* d|g| = Re(conj(g) g' dz) / |g|; d arg z = (-y dx + x dy) / |z|^2. */
        ax = (gz.real() * d.real() + gz.imag() * d.imag()) / std::abs(gz) -
             y / std::norm(z);
        ay = (gz.real() * -d.imag() + gz.imag() * d.real()) / std::abs(gz) +
             x / std::norm(z);
      }
      long double lx = x, ly = y;
      auto gl = __enzyme_autodiff<Grad2<long double>>(f<long double>, lx, ly,
                                                      enzyme_const, part);
      long double tx = __enzyme_fwddiff<long double>(f<long double>, lx, 1.0L,
                                                     ly, 0.0L, enzyme_const, part);
      long double ty = __enzyme_fwddiff<long double>(f<long double>, lx, 0.0L,
                                                     ly, 1.0L, enzyme_const, part);
      snprintf(name, sizeof name, "long double part %d at (%g, %g): rev d/dx", part, x, y);
      check_grad_tol(name, (double)gl.dx, ax, fx, 1e-10);
      snprintf(name, sizeof name, "long double part %d at (%g, %g): rev d/dy", part, x, y);
      check_grad_tol(name, (double)gl.dy, ay, fy, 1e-10);
      snprintf(name, sizeof name, "long double part %d at (%g, %g): fwd d/dx", part, x, y);
      check_grad_tol(name, (double)tx, ax, fx, 1e-10);
      snprintf(name, sizeof name, "long double part %d at (%g, %g): fwd d/dy", part, x, y);
      check_grad_tol(name, (double)ty, ay, fy, 1e-10);

      /* float: to float precision, against the same analytic values. */
      float sx = x, sy = y;
      auto gf = __enzyme_autodiff<Grad2<float>>(f<float>, sx, sy, enzyme_const, part);
      float ux = __enzyme_fwddiff<float>(f<float>, sx, 1.0f, sy, 0.0f, enzyme_const, part);
      float uy = __enzyme_fwddiff<float>(f<float>, sx, 0.0f, sy, 1.0f, enzyme_const, part);
      snprintf(name, sizeof name, "float part %d at (%g, %g): rev d/dx", part, x, y);
      check_close(name, gf.dx, ax, 1e-4, 1e-5);
      snprintf(name, sizeof name, "float part %d at (%g, %g): rev d/dy", part, x, y);
      check_close(name, gf.dy, ay, 1e-4, 1e-5);
      snprintf(name, sizeof name, "float part %d at (%g, %g): fwd d/dx", part, x, y);
      check_close(name, ux, ax, 1e-4, 1e-5);
      snprintf(name, sizeof name, "float part %d at (%g, %g): fwd d/dy", part, x, y);
      check_close(name, uy, ay, 1e-4, 1e-5);
    }
  }
  return check_done();
}
