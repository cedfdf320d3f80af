//===- support/UnreadLinkClears.h - Unread link or seed --*- C++ -*-===//
//
// A number with a derivative stored where a caller's link may lie that the
// request never read (analysis/LinkedStores.h) finds in its shadow bytes
// either the link's shadow (a pointer: its adjoint must start from zero)
// or a seed the caller put there (a number: the final value's adjoint,
// which must stay). What the static analysis cannot tell apart, the
// bytes do: the augmented sweep zeroes the number's shadow bytes only
// where the 8 bytes around them read as a user-space address (2^40 to
// 2^52: no normal double, nor a normal float in the word's high half, nor
// a float beside an integer below 256), or, where the shadow's word is
// below 2^40 (a shadow pool mapped low, a float beside a zero), where the
// primal's word read so before the store (the link itself). A seed that
// is a number is kept. Not told apart (docs/status.md, Known bugs): a
// link whose primal and shadow both lie below 2^40 (a program linked
// without PIE whose heap is there), which is not cleared, and a float
// seed beside an integer of 256 or more (or a pointer) in the shadow, or,
// where that one is smaller, in the primal, which is.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_UNREADLINKCLEARS_H
#define ADCORE_SUPPORT_UNREADLINKCLEARS_H

#include "llvm/IR/IRBuilder.h"

namespace adcore {

/// Emits the clear of the shadow bytes \p Shadow of the number \p SI stores
/// (an instruction of the augmented sweep, at whose primal address the
/// primal's word is read before it) where they hold a link's shadow: at
/// \p B, after the store. Numbers other than 4 or 8 bytes are cleared
/// without a test.
void clearUnreadLink(llvm::IRBuilder<> &B, llvm::StoreInst &SI,
                     llvm::Value *Shadow, llvm::Align A);

} // namespace adcore

#endif // ADCORE_SUPPORT_UNREADLINKCLEARS_H
