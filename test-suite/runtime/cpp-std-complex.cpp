// std::complex<double> arithmetic (inline) together with std::abs, arg, exp,
// log, pow, sqrt, sin and cos (which libstdc++ forwards to the C99 complex
// functions): reverse and forward mode against central differences and an
// analytic holomorphic derivative.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O3 -march=native %s -o %t && %t
// RUN: %clangxx_enzyme -fenzyme -O2 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t
#include "Inputs/check.h"

#include <complex>

using cd = std::complex<double>;

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_fwddiff(Args...);
extern int enzyme_const;

struct Grad2 {
  double dx, dy;
};

/* g(z) = exp(z) z + log(z) / z + sqrt(z) + z^(0.5+0.2i) + sin(z) cos(z):
 * holomorphic, with g'(z) below. */
static cd g(cd z) {
  return std::exp(z) * z + std::log(z) / z + std::sqrt(z) +
         std::pow(z, cd(0.5, 0.2)) + std::sin(z) * std::cos(z);
}
static cd gPrime(cd z) {
  cd w(0.5, 0.2);
  return std::exp(z) * (z + 1.0) + (1.0 - std::log(z)) / (z * z) +
         0.5 / std::sqrt(z) + w * std::pow(z, w) / z + std::cos(2.0 * z);
}

/* Part 0: Re g, 1: Im g, 2: |g(z)| + arg(z), 3: |z * conj(z) - 1|. */
double f(double x, double y, int part) {
  cd z(x, y);
  switch (part) {
  case 0:
    return g(z).real();
  case 1:
    return g(z).imag();
  case 2:
    return std::abs(g(z)) + std::arg(z);
  default: {
    cd p = z * std::conj(z) - cd(1.0, 0.0);
    p /= cd(0.0, 2.0) + z;
    return std::abs(p);
  }
  }
}

/* Part 3 has no analytic value here: finite differences only. */
static void check(const char *name, double got, double analytic, double fd,
                  int part) {
  if (part == 3)
    check_fd(name, got, fd);
  else
    check_grad_tol(name, got, analytic, fd, 1e-10);
}

static int Part;
static double fV(const double *v, void *) { return f(v[0], v[1], Part); }

int main() {
  const double pts[2][2] = {{0.8, 0.5}, {-1.1, 0.6}};
  char name[64];
  for (auto &pt : pts) {
    double x = pt[0], y = pt[1];
    double v[2] = {x, y};
    cd z(x, y), d = gPrime(z), gz = g(z);
    for (int part = 0; part < 4; ++part) {
      Part = part;
      double fx = fd_partial(fV, v, 2, 0, nullptr);
      double fy = fd_partial(fV, v, 2, 1, nullptr);
      double ax = fx, ay = fy;
      if (part == 0) {
        ax = d.real();
        ay = -d.imag();
      } else if (part == 1) {
        ax = d.imag();
        ay = d.real();
      } else if (part == 2) {
        /* d|g| = Re(conj(g) g' dz) / |g|; d arg z = (-y dx + x dy) / |z|^2. */
        ax = (gz.real() * d.real() + gz.imag() * d.imag()) / std::abs(gz) -
             y / std::norm(z);
        ay = (gz.real() * -d.imag() + gz.imag() * d.real()) / std::abs(gz) +
             x / std::norm(z);
      }
      Grad2 gr = __enzyme_autodiff<Grad2>(f, x, y, enzyme_const, part);
      snprintf(name, sizeof name, "part %d at (%g, %g): rev d/dx", part, x, y);
      check(name, gr.dx, ax, fx, part);
      snprintf(name, sizeof name, "part %d at (%g, %g): rev d/dy", part, x, y);
      check(name, gr.dy, ay, fy, part);
      double tx = __enzyme_fwddiff<double>(f, x, 1.0, y, 0.0, enzyme_const, part);
      double ty = __enzyme_fwddiff<double>(f, x, 0.0, y, 1.0, enzyme_const, part);
      snprintf(name, sizeof name, "part %d at (%g, %g): fwd d/dx", part, x, y);
      check(name, tx, ax, fx, part);
      snprintf(name, sizeof name, "part %d at (%g, %g): fwd d/dy", part, x, y);
      check(name, ty, ay, fy, part);
    }
  }
  return check_done();
}
