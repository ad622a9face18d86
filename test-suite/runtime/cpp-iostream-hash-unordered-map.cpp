// A differentiated function that prints intermediate values with std::cout
// and std::cerr (std::endl, '\n', strings), hashes a double with
// std::hash<double>, sets the locale, and keeps active values in a
// std::unordered_map<int, double> (values active, looked up by key): the
// I/O, locale and hashing calls are inactive by rule, the map's storage
// carries derivatives. Reverse and forward mode, -O0 and -O2.
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t && %t > %t.out 2>&1 && grep -q "a = " %t.out
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t && %t > %t.out 2>&1 && grep -q "a = " %t.out
// RUN: %clangxx_enzyme -fenzyme -O0 -fsanitize=address,undefined -fno-sanitize-recover=all %s -o %t && %t > /dev/null
#include "Inputs/check.h"

#include <clocale>
#include <functional>
#include <iostream>
#include <locale>
#include <unordered_map>

template <typename R, typename... Args> R __enzyme_autodiff(Args...);
template <typename R, typename... Args> R __enzyme_fwddiff(Args...);

/* s = sum_k table[k]^2 with table[k] = x^k (k = 1..n) stored by key, plus
 * table[2] * table[3] looked up again: ds/dx = sum 2k x^(2k-1) + 5 x^4. */
double f(double x, int n) {
  std::setlocale(LC_NUMERIC, "C");
  std::locale loc;
  std::unordered_map<int, double> table;
  double p = 1;
  for (int k = 1; k <= n; ++k) {
    p *= x;
    table[k] = p;
  }
  std::cout << "a = " << table[2] << ", hash parity "
            << (std::hash<double>{}(x) & 1) << std::endl;
  std::cerr << "n = " << n << ' ' << x << '\n';
  double s = 0;
  for (int k = 1; k <= n; ++k)
    s += table.at(k) * table[k];
  s += table.find(2)->second * table[3];
  return s;
}

int main() {
  const int n = 5;
  for (double x : {0.6, -1.2}) {
    double expect = 5 * pow(x, 4);
    for (int k = 1; k <= n; ++k)
      expect += 2 * k * pow(x, 2 * k - 1);
    auto fv = [](double v) { return f(v, 5); };
    double fd = fd_diff1(fv, x);
    check_grad("unordered_map + cout rev", __enzyme_autodiff<double>(f, x, n),
               expect, fd);
    check_grad("unordered_map + cout fwd",
               __enzyme_fwddiff<double>(f, x, 1.0, n), expect, fd);
  }
  return check_done();
}
