//===- adcore/RequestCollector.h - Find derivative requests ---*- C++ -*-===//
#ifndef ADCORE_REQUESTCOLLECTOR_H
#define ADCORE_REQUESTCOLLECTOR_H

#include "adcore/Request.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace adcore {

/// A request that could not be formed, with the call it came from.
struct MalformedRequest {
  llvm::CallBase *Site = nullptr;
  std::string Message;
};

struct CollectedRequests {
  std::vector<Request> Requests;
  std::vector<MalformedRequest> Errors;
};

/// Finds every derivative request in \p M, in program order: calls to
/// Enzyme-compatible entry points (matched by substring of the callee name).
CollectedRequests collectRequests(llvm::Module &M);

} // namespace adcore

#endif // ADCORE_REQUESTCOLLECTOR_H
