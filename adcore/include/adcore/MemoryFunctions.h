//===- adcore/MemoryFunctions.h - Allocation and deallocation --*- C++ -*-===//
//
// The C and C++ allocation functions whose derivatives allocate shadow
// memory beside the primal memory: malloc, calloc, realloc, aligned_alloc,
// memalign, valloc, operator new / new[] (all overloads), and free /
// operator delete / delete[]. (posix_memalign is rewritten as aligned_alloc
// before differentiation: AlignedBlocks.cpp.) The program's own allocators,
// registered with Enzyme's __enzyme_allocation_like, are marked by
// markAllocationLike (CustomRules.cpp) and classified here as well.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_MEMORYFUNCTIONS_H
#define ADCORE_MEMORYFUNCTIONS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DerivedTypes.h"

namespace llvm {
class CallBase;
class Function;
class Module;
class Value;
} // namespace llvm

namespace adcore {

enum class MemoryFunctionKind {
  None,
  Malloc,       ///< ptr f(size) — uninitialized (malloc, new, new[], valloc)
  Calloc,       ///< ptr calloc(n, size) — zeroed
  Realloc,      ///< ptr realloc(ptr, size)
  AlignedAlloc, ///< ptr aligned_alloc(align, size), memalign
  Free,         ///< void f(ptr, ...) — free, delete, delete[]
  AllocationLike,   ///< a registered allocator: ptr f(...), the size one of
                    ///< its arguments (allocationSizeArg), uninitialized
  DeallocationLike, ///< its deallocator: void g(...), the block one of its
                    ///< arguments (freedPointerArg)
  TapePush,     ///< ptr adcc_tape_push(tape, bytes, align): a new record;
                ///< adcc_tape_push_shadow(tape, bytes, align): a record's
                ///< shadow block, its address pushed after the record
  TapePop,      ///< ptr adcc_tape_pop(tape, bytes, align): the last record;
                ///< adcc_tape_pop_shadow(tape): the shadow block of the
                ///< record about to be popped
  AdjointCopy,  ///< void adcc_adjoint_copy_f64/f32(dst, src, bytes): the
                ///< adjoint of a copy (src += dst, dst = 0, element-wise);
                ///< _strided_f64/f32(dst, src, count, stride): one field
                ///< of an array of structs (a null src only clears dst)
};

MemoryFunctionKind classifyMemoryFunction(const llvm::Function &F);

/// For `malloc` and `calloc`: the runtime's allocator of reverse mode's
/// shadows of their blocks, `void *adcc_shadow_alloc(size_t bytes)` (zeroed;
/// freed by `adcc_shadow_free`, which keeps large blocks for later calls),
/// declared in F's module; null for other functions.
llvm::FunctionCallee shadowBlockAllocator(const llvm::Function &F);
/// Its deallocator, `void adcc_shadow_free(void *)`, declared in \p M.
llvm::FunctionCallee shadowBlockDeallocator(llvm::Module &M);

inline bool isAllocationFunction(const llvm::Function &F) {
  MemoryFunctionKind K = classifyMemoryFunction(F);
  return K != MemoryFunctionKind::None && K != MemoryFunctionKind::Free &&
         K != MemoryFunctionKind::DeallocationLike &&
         K != MemoryFunctionKind::AdjointCopy;
  // (Tape records count as allocations: forward mode over a reverse
  // sweep gives each record a shadow record.)
}

/// Whether \p K returns a fresh block whose contents the caller decides:
/// malloc, calloc, aligned_alloc and a registered allocator (not realloc,
/// which brings the old contents, nor a tape record).
inline bool isFreshAllocation(MemoryFunctionKind K) {
  return K == MemoryFunctionKind::Malloc || K == MemoryFunctionKind::Calloc ||
         K == MemoryFunctionKind::AlignedAlloc ||
         K == MemoryFunctionKind::AllocationLike;
}

/// Whether \p K frees the block its freedPointerArg points to.
inline bool isDeallocation(MemoryFunctionKind K) {
  return K == MemoryFunctionKind::Free ||
         K == MemoryFunctionKind::DeallocationLike;
}

/// The arguments of a registered deallocator, in Enzyme's spelling: "2,-1"
/// calls it with the allocator's argument 2, then the block (-1). False if
/// \p Spec is not a list of integers from -1 up with exactly one -1.
bool parseDeallocationArgs(llvm::StringRef Spec,
                           llvm::SmallVectorImpl<int> &Args);

/// Marks \p Alloc as an allocator whose argument \p SizeArg is the size
/// in bytes, freed by calling \p Free with \p FreeArgs (as parsed above).
void markAllocationLike(llvm::Function &Alloc, unsigned SizeArg,
                        llvm::ArrayRef<int> FreeArgs, llvm::Function &Free);

/// The size argument of an AllocationLike function.
unsigned allocationSizeArg(const llvm::Function &F);
/// The argument that holds the block: 0 for free and delete, the position
/// of the block for a DeallocationLike function.
unsigned freedPointerArg(const llvm::Function &F);
/// The deallocator call that frees \p Block allocated by \p Alloc (an
/// AllocationLike call): the registered deallocator and its arguments, the
/// allocator's ones mapped by \p Map (to where the call is emitted).
struct Deallocation {
  llvm::Function *Callee = nullptr;
  llvm::SmallVector<llvm::Value *, 4> Args;
};
Deallocation
deallocationOf(const llvm::CallBase &Alloc, llvm::Value *Block,
               llvm::function_ref<llvm::Value *(llvm::Value *)> Map);

} // namespace adcore

#endif // ADCORE_MEMORYFUNCTIONS_H
