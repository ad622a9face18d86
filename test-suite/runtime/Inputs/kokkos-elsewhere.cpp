// For kokkos-virtual-label.cpp: built with plain clang++ (no bitcode), a
// function of a library.
#include <ostream>
void summarize_elsewhere(std::ostream &os) { os << "summary\n"; }
