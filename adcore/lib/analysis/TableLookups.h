//===- analysis/TableLookups.h - Tables indexed by a float ------*- C++ -*-===//
//
// A function that reads its result from a table of floating-point values
// at an index computed from a floating-point argument (genann's cached
// sigmoid: `lookup[(size_t)((a - lo) * interval + 0.5)]`) is a step
// function of the argument: its derivative is 0 wherever it is defined,
// and adcc, as Enzyme, gives 0 (the conversion to an integer has no
// derivative, nor has what is read from a table without one). That is the
// derivative of the program as written, and what central differences with
// a step inside one entry give, but rarely what the author of the table
// meant (the derivative of the function the table holds). So each such
// conversion in differentiated code is reported once, as a warning at its
// line, where the value read from the table, with no derivative, becomes
// the function's result or is stored into memory with derivatives: not
// where the index only selects coefficients that multiply a value with a
// derivative (a linear interpolation in a table keeps its derivative).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_TABLELOOKUPS_H
#define ADCORE_TABLELOOKUPS_H

namespace llvm {
class Function;
} // namespace llvm

namespace adcore {

class ActivityAnalysis;

/// Warns, once per conversion, at each conversion of a floating-point
/// value with a derivative (\p Activity, of \p F) to an integer that
/// indexes a table of floating-point values whose entry \p F returns or
/// stores into memory with derivatives, without a derivative.
void warnTableLookups(llvm::Function &F, const ActivityAnalysis &Activity);

} // namespace adcore

#endif // ADCORE_TABLELOOKUPS_H
