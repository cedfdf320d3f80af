//===- ShadowAlignment.h - Alignment of shadow memory accesses -*- C++ -*-===//
//
// A primal access may claim more alignment than the primal's types give:
// SIMD code peels iterations until an address is a multiple of 16 and then
// loads whole vectors with `align 16` (Eigen's packet loops), and the
// optimizer raises the alignment of stack slots after adcc made their
// shadows. The shadow of that memory is allocated apart from it (by the
// user, on the tape, in a scratch area) and is aligned only as the values
// it holds need. So the derivatives access shadows with the natural
// alignment of the scalars they hold, never more than the primal access.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SHADOWALIGNMENT_H
#define ADCORE_SHADOWALIGNMENT_H

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/Support/Alignment.h"

#include <algorithm>

namespace adcore {

/// The alignment of a shadow access of type \p Ty where the primal access
/// of that type has alignment \p Primal.
inline llvm::Align shadowAlign(const llvm::DataLayout &DL, llvm::Type *Ty,
                               llvm::Align Primal) {
  while (auto *AT = llvm::dyn_cast<llvm::ArrayType>(Ty))
    Ty = AT->getElementType();
  return std::min(Primal, DL.getABITypeAlign(Ty->getScalarType()));
}

/// The alignment of a copy or clear of shadow memory whose primal has
/// alignment \p Primal: at most that of a double.
inline llvm::MaybeAlign shadowAlign(llvm::MaybeAlign Primal) {
  const llvm::Align Scalar(8);
  return Primal ? std::min(*Primal, Scalar) : Primal;
}

} // namespace adcore

#endif // ADCORE_SHADOWALIGNMENT_H
