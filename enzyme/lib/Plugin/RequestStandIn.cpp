//===- RequestStandIn.cpp - A request seen as a call of its function ------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Plugin/RequestStandIn.h"

#include "Plugin/DiffRequest.h"

#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace enzyme {

RequestStandIn::RequestStandIn(const DiffRequest &Request) {
  Function *Fn = Request.Fn;
  if (!Fn || !Request.Call || !Request.Call->getFunction() ||
      Request.Call->getFunction() == Fn ||
      Request.Primals.size() != Fn->arg_size())
    return;
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < Fn->arg_size(); ++I) {
    Value *Primal = Request.Primals[I];
    if (!Primal || Primal->getType() != Fn->getArg(I)->getType())
      return;
    Args.push_back(Primal);
  }
  // No path reaches the block: it only shows the analyses which objects
  // the request passes to which parameters.
  auto *BB = BasicBlock::Create(Fn->getContext(), "enzyme.request.standin",
                                Request.Call->getFunction());
  IRBuilder<> B(BB);
  B.CreateCall(Fn->getFunctionType(), Fn, Args);
  B.CreateUnreachable();
  Block = BB;
}

RequestStandIn::~RequestStandIn() {
  if (auto *BB = cast_or_null<BasicBlock>(Block))
    BB->eraseFromParent();
}

} // namespace enzyme
