// The Kokkos user's request this product starts from
// (shared/seeds/001_259d059054638c53.txt): the gradient of a 2-norm
// written with parallel_reduce over a Kokkos::View, built against Debian's
// Kokkos exactly as the user would, unchanged except for
// Kokkos::Experimental::sqrt (Kokkos 3.4 has no Kokkos::sqrt). Before the
// Kokkos rules it failed to link: "cannot differentiate a call to
// Kokkos::Impl::SharedAllocationRecord<void, void>::decrement".
// REQUIRES: kokkos
// RUN: %clangxx_enzyme -fenzyme -O2 %s -o %t %kokkos_flags
// RUN: %t | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -O0 %s -o %t0 %kokkos_flags
// RUN: %t0 | FileCheck %s
// CHECK: Vector v: 2 3 4
// CHECK-NEXT: Correct gradient of nrm2 at v: [[G:0.371391 0.557086 0.742781]]
// CHECK-NEXT: Enzyme gradient of nrm2 at v: [[G]]
#include <Kokkos_Core.hpp>
#include <iostream>

using Vector = Kokkos::View<double*>;

template<typename RT, typename... Args>
RT __enzyme_autodiff(void*, Args...);

int enzyme_dup;
int enzyme_out;
int enzyme_const;

struct Nrm2_Functor
{
  Nrm2_Functor(Vector v_) : v(v_) {}

  KOKKOS_INLINE_FUNCTION void operator()(int i, double& lsum) const
  {
    lsum += v(i) * v(i);
  }

  Vector v;
};

double nrm2(const Vector& v)
{
  double sum = 0;
  Kokkos::parallel_reduce(v.extent(0), Nrm2_Functor(v), sum);
  return Kokkos::Experimental::sqrt(sum);
}

// Analytical gradient of nrm2
Vector gradNrm2(Vector v)
{
  double n2 = nrm2(v);
  Vector grad("grad", v.extent(0));
  for(size_t i = 0; i < v.extent(0); i++)
  {
    grad(i) = v(i) / n2;
  }
  return grad;
}

void printVector(Vector v)
{
  for(size_t i = 0; i < v.extent(0); i++)
  {
    std::cout << v(i) << " ";
  }
  std::cout << '\n';
}

int main(int argc, char* argv[])
{
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double*> v("v", 3);
    v(0) = 2;
    v(1) = 3;
    v(2) = 4;
    std::cout << "Vector v: ";
    printVector(v);
    Vector g = gradNrm2(v);
    std::cout << "Correct gradient of nrm2 at v: ";
    printVector(g);
    std::cout << "Enzyme gradient of nrm2 at v: ";
    Vector ge("ge", 3);
    __enzyme_autodiff<void>((void*) nrm2, enzyme_dup, v, ge);
    printVector(ge);
  }
  Kokkos::finalize();
  return 0;
}
