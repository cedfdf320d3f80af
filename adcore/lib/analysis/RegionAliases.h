//===- analysis/RegionAliases.h - Shared objects that may alias -*- C++ -*-===//
//
// The shared memory of an OpenMP region (analysis/ParallelMemory.h) is
// named by objects: a pointer's underlying object, followed through the
// pointers read from memory on the way. Two accesses with different
// objects may still reach the same place: a struct that holds an array's
// address, written through (`h->p[0] = ...` where h holds p), reaches the
// array the region reads as `p[0]`. A per-thread copy of that array's
// shadow, or a plain update of an iteration's own element of it, would
// then miss or race with the other access's adjoint.
//
// A pointer's path is the object it starts from (an argument of the
// region, a global, a stack slot of the region, or something unknown) and
// the number of pointers read from memory on the way (stack slots written
// once, -O0's copies of the arguments, are looked through). Two paths from
// different objects may alias when
//
//   - either starts from something unknown, or from a pointer read from a
//     stack slot of the region written more than once;
//   - one reads the object itself (depth 0: a variable of the forking
//     function, or a global) and the other follows a pointer read from
//     memory, and the object's address escapes (the forking function
//     stores it or passes it to a call other than the fork; a global
//     that is not internal, or whose address is stored or passed), unless
//     that pointer is a variable of the forking function given only other
//     objects (its arguments, other variables, globals);
//   - both follow pointers read from memory, and either follows more
//     than one, or the variables of the forking function they read from
//     were given the same pointer (`h.p = p` and `p` captured), or
//     pointers that may overlap: two arguments of the forking function
//     (f(a, a), f(x, x + 1); not where one is restrict and the caller
//     asks for a write, which C's restrict covers), an argument and a
//     global, an argument and memory of another function, or pointers
//     adcc cannot trace. Variables given different variables, globals or
//     new allocations of the forking function are different arrays.
//
// Stack slots of the region without pointers read from memory are the
// thread's own and alias nothing shared; distinct objects read at depth 0
// are distinct variables, unless the forks pass pointers by value
// (firstprivate(x, y): the forking function's arguments, which may
// overlap as above).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ANALYSIS_REGIONALIASES_H
#define ADCORE_ANALYSIS_REGIONALIASES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>

namespace llvm {
class Argument;
class Function;
class Value;
} // namespace llvm

namespace adcore {

class RegionAliases {
public:
  /// \p Region: the outlined body of a region (its forks give the
  /// variables its arguments point to); \p Generated: whether adcc made a
  /// function (its forks, in derivatives being made, are not looked at).
  RegionAliases(const llvm::Function &Region,
                std::function<bool(const llvm::Function &)> Generated);

  /// Whether pointer arguments of the forking function (and the globals
  /// or other functions' memory they may point to) are taken to overlap.
  enum class Arguments {
    Overlap,        ///< may overlap (two accesses that only read)
    UnlessRestrict, ///< a restrict one overlaps no other (C promises it
                    ///< for memory written through it)
    Distinct        ///< different arrays (a write and a read of an
                    ///< iteration's own element: in a program without
                    ///< data races, their reverses are ordered too)
  };
  /// Whether an access through \p A may reach memory that an access
  /// through \p B reaches, where the two have different objects.
  bool mayAlias(const llvm::Value *A, const llvm::Value *B,
                Arguments Args = Arguments::Overlap) const;
  /// Whether a call given \p Arg may reach, through pointers it reads from
  /// that memory, what \p B reaches.
  bool mayReach(const llvm::Value *Arg, const llvm::Value *B) const;

  struct Path {
    const llvm::Value *Root = nullptr; ///< null: unknown
    unsigned Depth = 0;                ///< pointers read from memory
  };
  Path pathOf(const llvm::Value *Ptr) const;

private:
  bool pathsMayAlias(Path A, Path B,
                     Arguments Args = Arguments::Overlap) const;
  /// Whether the address of what \p Root (an argument or a global) points
  /// to may be held in memory or by a callee.
  bool escapes(const llvm::Value *Root) const;
  /// The variables (stack slots of the forking functions, or globals)
  /// \p Root points to; false when some are not known.
  bool forkedObjects(const llvm::Value *Root,
                     llvm::SmallPtrSetImpl<const llvm::Value *> &Out) const;
  /// Adds to \p Out what the argument \p Arg of a forked region points
  /// to: what the program's forks pass, followed into the forks of the
  /// regions those are in (a region nested in a region); false when some
  /// are not known.
  bool addForkedObjects(const llvm::Argument &Arg,
                        llvm::SmallPtrSetImpl<const llvm::Value *> &Out,
                        unsigned Budget = 4) const;
  /// Whether the pointer \p Held reads from memory may point into what
  /// \p Direct (an argument or a global, read at depth 0) points to.
  bool mayHold(Path Held, const llvm::Value *Direct, Arguments Args) const;
  /// Whether what two region arguments or globals read at depth 0 point to
  /// may overlap: distinct variables do not, pointers the forks pass by
  /// value may (the forking function's arguments).
  bool directMayOverlap(const llvm::Value *A, const llvm::Value *B,
                        Arguments Args) const;
  /// The objects of the pointers stored into what \p Root points to in the
  /// forking functions (null: a pointer that may be anything); false when
  /// \p Root is not a variable of theirs (an argument of theirs, a global
  /// other files see).
  bool storedPointers(const llvm::Value *Root,
                      llvm::SmallPtrSetImpl<const llvm::Value *> &Out) const;

  const llvm::Function &Region;
  std::function<bool(const llvm::Function &)> Generated;
  mutable llvm::DenseMap<const llvm::Value *, bool> Escapes;
};

} // namespace adcore

#endif // ADCORE_ANALYSIS_REGIONALIASES_H
