//===- main.cpp - Entry point of enzyme-clang and enzyme-clang++ ----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "llvm/Support/InitLLVM.h"

int main(int Argc, const char **Argv) {
  llvm::InitLLVM Init(Argc, Argv);
  enzyme::driver::Driver D(Argv[0], reinterpret_cast<void *>(&main));
  return D.run(llvm::ArrayRef<const char *>(Argv, Argc).drop_front());
}
