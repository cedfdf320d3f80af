//===- CloneOrigins.h - The primal value each clone stands for -*- C++ -*-===//
//
// A derivative starts as a clone of its primal and is rewritten in place:
// clones are replaced, split off, deleted. The map from each clone to the
// primal value it copies must forget a clone when it is deleted: a value
// made later at the same address (a branch of a new block where a replaced
// return was) would otherwise pass for the deleted clone and take its
// adjoint, and whether it does depends on where the allocator puts it (the
// same compile gave different objects once in some hundreds of runs).
// Replacing a clone's uses leaves its entry where it is.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_CLONEORIGINS_H
#define ADCORE_CLONEORIGINS_H

#include "llvm/IR/ValueMap.h"

namespace adcore {

class CloneOrigins {
  struct Config : llvm::ValueMapConfig<const llvm::Value *> {
    enum { FollowRAUW = false };
  };
  llvm::ValueMap<const llvm::Value *, const llvm::Value *, Config> Map;

public:
  /// The primal value of \p Clone, or null.
  const llvm::Value *lookup(const llvm::Value *Clone) const {
    return Map.lookup(Clone);
  }
  bool contains(const llvm::Value *Clone) const { return Map.count(Clone); }
  size_t count(const llvm::Value *Clone) const { return Map.count(Clone); }
  const llvm::Value *&operator[](const llvm::Value *Clone) {
    return Map[Clone];
  }
  /// Maps \p Clone to \p Primal unless it has an entry already.
  bool try_emplace(const llvm::Value *Clone, const llvm::Value *Primal) {
    return Map.insert({Clone, Primal}).second;
  }
  bool erase(const llvm::Value *Clone) { return Map.erase(Clone); }
};

} // namespace adcore

#endif // ADCORE_CLONEORIGINS_H
