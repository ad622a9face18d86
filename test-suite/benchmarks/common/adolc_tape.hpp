//===- adolc_tape.hpp - ADOL-C tape buffers sized to the tape -------------===//
//
// Shared by the ADOL-C builds of the benchmarks (never by the Enzyme-ABI
// builds). Include after <adolc/adolc.h>.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_ADOLC_TAPE_HPP
#define ENZYME_BENCH_ADOLC_TAPE_HPP

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace bench {

// ADOL-C keeps a tape in memory only while it fits the buffers given to
// trace_on; past them it spills to files in the working directory. The
// defaults (2^19 entries) are far too small here. calibrate() records the
// tape, untimed, with buffers large enough to hold it (growing them if they
// were not), after which every recording asks for buffers that just hold it.
struct TapeBuffers {
  short Tag = 1;
  unsigned Ops = 1u << 24, Locs = 1u << 24, Vals = 1u << 24, Tays = 1u << 24;

  void trace_on() { ::trace_on(Tag, 0, Ops, Locs, Vals, Tays); }

  template <class F> void calibrate(F &&Record) {
    for (;;) {
      Record();
      size_t Stats[STAT_SIZE];
      tapestats(Tag, Stats);
      if (!Stats[OP_FILE_ACCESS] && !Stats[LOC_FILE_ACCESS] &&
          !Stats[VAL_FILE_ACCESS] && Stats[TAY_STACK_SIZE] <= Tays) {
        auto Fit = [](size_t N) { return (unsigned)(N + N / 8 + 1024); };
        Ops = Fit(Stats[NUM_OPERATIONS]);
        Locs = Fit(Stats[NUM_LOCATIONS]);
        Vals = Fit(Stats[NUM_VALUES]);
        Tays = Fit(Stats[TAY_STACK_SIZE]);
        return;
      }
      removeTape(Tag, ADOLC_REMOVE_COMPLETELY);
      if (Locs >= 1u << 30) {
        std::fprintf(stderr, "adolc: tape too large for memory buffers\n");
        std::exit(2);
      }
      Ops *= 4, Locs *= 4, Vals *= 4, Tays *= 4;
    }
  }
};

/// The gradient of a scalar objective of several parameter groups. The
/// objectives branch on values, so every evaluation records the tape again
/// at the groups' current values (taken from where the groups live, which
/// the finite-difference check perturbs) and then runs the reverse sweep.
/// The objective is called with the groups' variables one after another.
class TapedGradient {
public:
  struct Group {
    const double *Data;
    size_t Size;
  };

  explicit TapedGradient(std::vector<Group> Groups) : Groups(Groups) {
    size_t N = 0;
    for (const Group &G : Groups)
      N += G.Size;
    Point.resize(N);
    Grad.resize(N);
  }

  /// Sizes the tape buffers (untimed); call once before timing.
  template <class F> void calibrate(F &&Objective) {
    Buffers.calibrate([&] { record(Objective); });
  }

  template <class F> void operator()(F &&Objective) {
    record(Objective);
    ::gradient(Buffers.Tag, (int)Point.size(), Point.data(), Grad.data());
  }

  /// The gradient with respect to group \p Index.
  const double *gradient(size_t Index) const {
    size_t Offset = 0;
    for (size_t I = 0; I < Index; ++I)
      Offset += Groups[I].Size;
    return Grad.data() + Offset;
  }

private:
  template <class F> void record(F &Objective) {
    size_t Offset = 0;
    for (const Group &G : Groups) {
      std::copy(G.Data, G.Data + G.Size, Point.begin() + Offset);
      Offset += G.Size;
    }
    Buffers.trace_on();
    {
      std::vector<adouble> Vars(Point.size());
      for (size_t I = 0; I < Point.size(); ++I)
        Vars[I] <<= Point[I];
      adouble Y = Objective(static_cast<const adouble *>(Vars.data()));
      double Value;
      Y >>= Value;
    }
    trace_off();
  }

  std::vector<Group> Groups;
  std::vector<double> Point, Grad;
  TapeBuffers Buffers;
};

} // namespace bench

#endif // ENZYME_BENCH_ADOLC_TAPE_HPP
