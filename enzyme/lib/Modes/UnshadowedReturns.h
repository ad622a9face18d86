//===- UnshadowedReturns.h - Callees that return no shadow -----*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// In device code a callee cannot give a pointer it returns without a
/// shadow a scratch one (there is no run-time to allocate it). Unoptimised
/// code often returns such pointers to callers that only keep them in a
/// local: Thrust's `select_system` returns a pair of references to the
/// execution policies, which are not data, and a helper may return a
/// struct of references to enzyme_const parameters. The caller would give
/// the local a shadow of the result and ask the callee for one, an error.
/// Instead the caller asks here whether the callee, given what the call
/// passes, returns only pointers without a shadow, by the callee's own
/// analysis; if so the local holds pointers without one (their shadow is
/// null), and a derivative stored through them is the usual error at that
/// store.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_UNSHADOWEDRETURNS_H
#define ENZYME_MODES_UNSHADOWEDRETURNS_H

#include "Analysis/ActivityAnalysis.h"

#include "llvm/IR/PassManager.h"

#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace enzyme {

class UnshadowedReturns final : public CalleeReturnShadows {
public:
  /// \p Prepare makes the copy of a function that the generators
  /// differentiate (prepareForDifferentiation with their call targets).
  UnshadowedReturns(llvm::FunctionAnalysisManager &FAM,
                    std::function<llvm::Function *(llvm::Function &)> Prepare)
      : FAM(FAM), Prepare(std::move(Prepare)) {}

  bool returnsOnlyUnshadowed(const llvm::CallBase &Call,
                             const ActivityAnalysis &Caller) override;

private:
  /// A callee, what each argument carries, the unshadowed fields of the
  /// pointers passed with shadows, and whether globals take context shadows.
  using Key = std::tuple<const llvm::Function *, std::vector<Activity>,
                         std::vector<std::vector<uint64_t>>, bool>;

  llvm::FunctionAnalysisManager &FAM;
  std::function<llvm::Function *(llvm::Function &)> Prepare;
  std::map<Key, bool> Answers;
  /// Questions being answered: a recursive call asks again.
  std::set<Key> Asking;
};

} // namespace enzyme

#endif // ENZYME_MODES_UNSHADOWEDRETURNS_H
