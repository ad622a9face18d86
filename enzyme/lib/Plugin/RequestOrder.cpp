//===- RequestOrder.cpp - Inner requests before the ones around them ------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Higher-order derivatives are requests inside code that another request
/// differentiates: a Hessian-vector product is `__enzyme_fwddiff` of a
/// function that calls `__enzyme_autodiff`. The engine differentiates code
/// it generated, so the inner request is served first; the outer one then
/// differentiates the inner derivative like any other function.
///
//===----------------------------------------------------------------------===//

#include "Plugin/RequestOrder.h"

#include "llvm/ADT/SmallPtrSet.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include <functional>

using namespace llvm;

namespace enzyme {

/// The functions \p F may call directly, \p F included.
static SmallPtrSet<const Function *, 16> reachableFrom(const Function &F) {
  SmallPtrSet<const Function *, 16> Seen = {&F};
  SmallVector<const Function *, 16> Work = {&F};
  while (!Work.empty()) {
    const Function *G = Work.pop_back_val();
    for (const Instruction &I : instructions(*G))
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction();
            Callee && !Callee->isDeclaration() && Seen.insert(Callee).second)
          Work.push_back(Callee);
  }
  return Seen;
}

RequestOrder orderInnerFirst(ArrayRef<DiffRequest> Requests) {
  RequestOrder Order;
  unsigned N = Requests.size();
  // Inside[I]: the requests whose call is in code request I differentiates.
  SmallVector<SmallVector<unsigned, 2>, 4> Inside(N);
  for (unsigned I = 0; I < N; ++I) {
    SmallPtrSet<const Function *, 16> Reach = reachableFrom(*Requests[I].Fn);
    for (unsigned J = 0; J < N; ++J)
      if (J != I && Reach.count(Requests[J].Call->getFunction())) {
        Inside[I].push_back(J);
        Order.Nested = true;
      }
  }
  // Depth-first, inner requests first; a cycle (a request inside the code
  // of a request inside its own code) keeps the order it is met in.
  SmallVector<uint8_t, 8> State(N, 0); // 0 new, 1 visiting, 2 done
  std::function<void(unsigned)> Visit = [&](unsigned I) {
    if (State[I])
      return;
    State[I] = 1;
    for (unsigned J : Inside[I])
      Visit(J);
    State[I] = 2;
    Order.Indices.push_back(I);
  };
  for (unsigned I = 0; I < N; ++I)
    Visit(I);
  Order.Inside = std::move(Inside);
  return Order;
}

} // namespace enzyme
