//===- support/UnreadLinkClears.h - Unread link or seed --*- C++ -*-===//
//
// A number with a derivative stored where a caller's link may lie that the
// request never read (analysis/LinkedStores.h) finds in its shadow bytes
// either the link's shadow (a pointer: its adjoint must start from zero)
// or a seed the caller put there (a number: the final value's adjoint,
// which must stay). What the static analysis cannot tell apart, the
// shadow's bytes do: the augmented sweep zeroes the number's shadow bytes
// only where the 8 bytes around them read as a user-space address (2^40
// to 2^52, where a program built as PIE has its heap, stack and mappings:
// no normal double, nor a normal float in the word's high half, nor a
// float beside a zero or an integer, whose shadow is zero). A seed that is
// a number is kept. (The primal's word says nothing of the shadow: a
// float beside an integer of 256 or more in the primal reads as an
// address there.) Not told apart (docs/status.md): a link whose shadow
// lies below 2^40 (a program linked without PIE whose heap is there),
// which is not cleared, and a float seed beside a pointer's shadow in the
// same 8 bytes, which is.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_UNREADLINKCLEARS_H
#define ADCORE_SUPPORT_UNREADLINKCLEARS_H

#include "llvm/IR/IRBuilder.h"

namespace adcore {

/// Emits the clear of the shadow bytes \p Shadow of the number \p SI stores
/// (an instruction of the augmented sweep) where they hold a link's
/// shadow: at \p B, after the store. Numbers other than 4 or 8 bytes are cleared
/// without a test.
void clearUnreadLink(llvm::IRBuilder<> &B, llvm::StoreInst &SI,
                     llvm::Value *Shadow, llvm::Align A);

} // namespace adcore

#endif // ADCORE_SUPPORT_UNREADLINKCLEARS_H
