//===- UnmergedRequests.h - Requests SimplifyCFG may not merge -*- C++ -*-===//
#ifndef ADCORE_REQUESTS_UNMERGEDREQUESTS_H
#define ADCORE_REQUESTS_UNMERGEDREQUESTS_H

namespace llvm {
class Module;
} // namespace llvm

namespace adcore {

/// Marks the declarations of the entry points (`__enzyme_autodiff`, ...)
/// `nomerge`, so that no pass before the AD pass merges two requests of
/// different functions into one whose function is a phi. True if the
/// module changed.
bool keepRequestsUnmerged(llvm::Module &M);

} // namespace adcore

#endif // ADCORE_REQUESTS_UNMERGEDREQUESTS_H
