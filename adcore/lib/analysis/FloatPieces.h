//===- FloatPieces.h - A float cut into integer pieces ----------*- C++ -*-===//
//
// Range reduction for large arguments (fdlibm's __kernel_rem_pio2) cuts a
// float into integer pieces that together hold all its bits:
//
//   hi = (int)x;  f = (x - hi) * 0x1p24;  mid = (int)f;
//   lo = (int)((f - mid) * 0x1p24);
//
// and computes on the pieces, converted back to floats. A conversion to an
// integer carries no derivative (right for a floor, which throws the
// fraction away), so the pieces rebuild x with a derivative of 0, which is
// wrong: the last residual, cut too, leaves nothing behind that carries
// x's derivative. findFloatCutIntoPieces finds that last cut. On the host
// the derivatives stop the program there at run time (stopAtFloatCut,
// support/DerivativeStops.h): sin's reduction of a large argument is one
// path of several, and the others are differentiated; on a device, where
// the runtime cannot report, it is an error.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_FLOATPIECES_H
#define ADCORE_FLOATPIECES_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace adcore {

/// A conversion to an integer in \p F of the residual of a truncation
/// (`x - (double)(int)x`, each side possibly scaled by constants), where
/// that residual goes nowhere but into such conversions: the float is cut
/// into integer pieces with nothing left over. Null when there is none.
/// At -O0, where the values pass through local variables, it looks at
/// the function with its scalar locals promoted to values (the instruction
/// returned is \p F's own).
const llvm::Instruction *findFloatCutIntoPieces(llvm::Function &F);

/// Makes \p Cut, found in the primal named \p Function (quoted, as
/// diagnostics name it), a point where its derivatives stop the program,
/// with a warning at \p At (the user's place of it) the first time.
void stopAtFloatCut(llvm::Instruction &Cut, const llvm::Instruction &At,
                    llvm::StringRef Function);

/// The error for such a cut in code with derivatives (on a device).
inline constexpr const char *FloatCutIntoPiecesError =
    "a floating-point value is cut into integer pieces that together hold "
    "all its bits (a truncation, and the residual truncated too, as "
    "fdlibm's __kernel_rem_pio2 cuts a large argument), whose derivatives "
    "are 0 where the value's is not; keep the last residual a float, or "
    "move the reduction into a function with a custom derivative";

} // namespace adcore

#endif // ADCORE_FLOATPIECES_H
