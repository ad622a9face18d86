//===- adolc_tape.hpp - ADOL-C tape buffers sized to the tape -------------===//
//
// Shared by the ADOL-C builds of the benchmarks (never by the Enzyme-ABI
// builds). Include after <adolc/adolc.h>.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_BENCH_ADOLC_TAPE_HPP
#define ENZYME_BENCH_ADOLC_TAPE_HPP

#include <cstdio>
#include <cstdlib>

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

} // namespace bench

#endif // ENZYME_BENCH_ADOLC_TAPE_HPP
