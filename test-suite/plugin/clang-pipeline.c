// With -fenzyme the pass runs exactly once per compiled module at every
// optimisation level, also in fat-LTO compilations (which run the optimiser
// twice), and the plugin's options are registered once.
// RUN: %clang_enzyme -fenzyme -fenzyme-trace -O0 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=O0 --implicit-check-not="pass ran" --implicit-check-not="registered more than once"
// RUN: %clang_enzyme -fenzyme -fenzyme-trace -O1 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=OPT --implicit-check-not="pass ran" --implicit-check-not="registered more than once"
// RUN: %clang_enzyme -fenzyme -fenzyme-trace -O2 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=OPT --implicit-check-not="pass ran" --implicit-check-not="registered more than once"
// RUN: %clang_enzyme -fenzyme -fenzyme-trace -O3 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=OPT --implicit-check-not="pass ran" --implicit-check-not="registered more than once"
// O0: enzyme: pass ran on module '{{.*}}clang-pipeline.c' (x86_64-{{.*}}) at O0
// OPT: enzyme: pass ran on module '{{.*}}clang-pipeline.c' (x86_64-{{.*}}) at optimizer-early

// The plugin's own options work through -mllvm, which proves it is loaded
// before clang parses them.
// RUN: %clang_enzyme -fenzyme -O2 -mllvm -enzyme-trace-pipeline -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=OPT --implicit-check-not="pass ran"

// Without -fenzyme nothing runs.
// RUN: %clang_enzyme -fenzyme-trace -O2 -c %s -o %t.o 2>&1 | count 0

double cube(double x) { return x * x * x; }
