//===- RequestStandIn.h - A request seen as a call of its function -*- C++ -*-//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The type analysis of memory (Analysis/MemoryTypes.h) follows a pointer
/// argument out to the callers that pass it, to learn what the memory holds
/// from their accesses and declared types. A request's function has no such
/// caller: `__enzyme_autodiff(f, enzyme_dup, x, dx, ...)` passes f as a
/// value. While a request is served, its function gets a stand-in call with
/// the request's primal arguments, in a block of the requesting function
/// that no path reaches, so that `memcpy(y, x, n * sizeof(double))` in f
/// learns from the caller's `double x[4]` that it copies doubles.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_REQUESTSTANDIN_H
#define ENZYME_PLUGIN_REQUESTSTANDIN_H

#include "llvm/IR/ValueHandle.h"

namespace enzyme {

struct DiffRequest;

/// Adds the stand-in call of \p Request's function for its lifetime; none
/// when the request's primal arguments do not match the parameters.
class RequestStandIn {
public:
  explicit RequestStandIn(const DiffRequest &Request);
  ~RequestStandIn();
  RequestStandIn(const RequestStandIn &) = delete;
  RequestStandIn &operator=(const RequestStandIn &) = delete;

private:
  llvm::WeakVH Block;
};

} // namespace enzyme

#endif // ENZYME_PLUGIN_REQUESTSTANDIN_H
