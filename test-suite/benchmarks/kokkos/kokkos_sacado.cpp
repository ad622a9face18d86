//===- kokkos_sacado.cpp - The kernel's gradient with Sacado's Fad types --===//
//
// Forward-mode operator overloading on the kernel of kokkos.hpp, as a
// Trilinos user would do it: the parameters go into Views of Fads seeded
// with unit tangents; the loss comes back as a Fad holding the gradient.
//
// This file is built with plain clang++ -O2 (no -fenzyme) and linked into
// kokkos.cpp's program: as Sacado's users build it, and because Sacado.hpp
// pulls in Teuchos, whose virtual methods (defined in its libraries) would
// otherwise join the program's bitcode as possible targets of indirect
// calls in the Kokkos code our compiler differentiates. Needs the Teuchos
// and MPI headers (Debian's Trilinos is built with MPI) and links with
// -ltrilinos_teuchoscore -ltrilinos_teuchoscomm (Teuchos' static objects).
//
//===----------------------------------------------------------------------===//

// Sacado.hpp brings Kokkos with its View specialisation for Fads; first,
// so that every View of a Fad below is the specialised one.
#include <Sacado.hpp>

#include "kokkos.hpp"

namespace kokkos_bench {

namespace {
// 16: the benchmark's default parameter count, so one pass; more
// parameters take several.
constexpr int SFadWidth = 16;
} // namespace

void sacado_dfad_gradient(const Problem &Pb, const Vector &Params,
                          double *Grad) {
  using DFad = Sacado::Fad::DFad<double>;
  const int P = Pb.P;
  // All P tangents in one pass: parameter J has the unit tangent e_J.
  Kokkos::View<DFad *> X("p", P, P + 1);
  for (int J = 0; J < P; ++J)
    X(J) = DFad(P, J, Params(J));
  DFad L = loss<DFad>(Pb, X);
  for (int J = 0; J < P; ++J)
    Grad[J] = L.dx(J);
}

int sacado_sfad_gradient(const Problem &Pb, const Vector &Params,
                         double *Grad) {
  using SFad = Sacado::Fad::SFad<double, SFadWidth>;
  const int P = Pb.P;
  Kokkos::View<SFad *> X("p", P, SFadWidth + 1);
  int Passes = 0;
  // Parameters [First, First + SFadWidth) carry the tangents of a pass;
  // the others are constants (zero tangents).
  for (int First = 0; First < P; First += SFadWidth, ++Passes) {
    for (int J = 0; J < P; ++J)
      X(J) = J >= First && J < First + SFadWidth
                 ? SFad(SFadWidth, J - First, Params(J))
                 : SFad(Params(J));
    SFad L = loss<SFad>(Pb, X);
    for (int J = First; J < P && J < First + SFadWidth; ++J)
      Grad[J] = L.dx(J - First);
  }
  return Passes;
}

int sacado_sfad_width() { return SFadWidth; }

double plain_primal(const Problem &Pb, const Vector &Params) {
  return loss<double>(Pb, Params);
}

} // namespace kokkos_bench
