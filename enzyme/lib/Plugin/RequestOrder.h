//===- RequestOrder.h - Inner requests before the ones around them -*- C++ -*-//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_REQUESTORDER_H
#define ENZYME_PLUGIN_REQUESTORDER_H

#include "Plugin/DiffRequest.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace enzyme {

struct RequestOrder {
  /// Indices into the requests, every request after those inside the code
  /// it differentiates.
  llvm::SmallVector<unsigned, 4> Indices;
  /// Per request, the requests inside the code it differentiates.
  llvm::SmallVector<llvm::SmallVector<unsigned, 2>, 4> Inside;
  /// Some request is inside code that another differentiates (higher
  /// order): generated code will itself be differentiated.
  bool Nested = false;
};

/// The order in which to serve \p Requests (RequestOrder.cpp).
RequestOrder orderInnerFirst(llvm::ArrayRef<DiffRequest> Requests);

} // namespace enzyme

#endif // ENZYME_PLUGIN_REQUESTORDER_H
