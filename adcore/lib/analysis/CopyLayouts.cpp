//===- CopyLayouts.cpp - What the bytes of a copy hold -------------------===//
//
// A memcpy or memmove moves bytes; which of them are floating-point numbers
// (whose adjoints move back in the reverse sweep), pointers (whose shadows
// move with them) or integers (nothing) the type analysis says of the
// memory at either end, and Clang's !tbaa.struct of the copied aggregate.
// The reverse sweep's adjoint copy and the augmented sweep's shadow copy
// read it the same way (TypeAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "TypeAnalysis.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {

MemoryLayout copyLayout(const TypeAnalysis &Types, const MemTransferInst &MT,
                        const Value *Dest, const Value *Source) {
  MemoryLayout L = copiedFields(MT);
  if (!L.empty())
    return L;
  L = Types.layout(Dest);
  for (auto [Offset, K] : Types.layout(Source))
    L.emplace(Offset, K);
  if (auto *CL = dyn_cast<ConstantInt>(MT.getLength()))
    for (auto It = L.begin(); It != L.end();)
      It = It->first >= 0 && uint64_t(It->first) >= CL->getZExtValue()
               ? L.erase(It)
               : std::next(It);
  return L;
}

uint64_t copyStride(const TypeAnalysis &Types, const Value *Dest,
                    const Value *Source) {
  uint64_t D = Types.elementSize(Dest), S = Types.elementSize(Source);
  uint64_t Stride = D ? D : S;
  return S && S != Stride ? 0 : Stride;
}

bool copiesOnlyIntegers(const TypeAnalysis &Types,
                        const MemTransferInst &Copy) {
  auto *Len = dyn_cast<ConstantInt>(Copy.getLength());
  if (!Len)
    return false;
  int64_t End = int64_t(Len->getZExtValue());
  auto OnlyIntegers = [&](const Value *Ptr) {
    bool Any = false;
    for (auto [Offset, K] : Types.layout(Ptr)) {
      if (Offset >= End)
        continue;
      if (K != Kind::Integer)
        return false;
      Any = true;
    }
    return Any;
  };
  return OnlyIntegers(Copy.getRawDest()) || OnlyIntegers(Copy.getRawSource());
}

} // namespace adcore
