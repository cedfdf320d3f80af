//===- rules/ReportingFunctions.h - Variadic functions that report -*- C++ -*-//
//
// A program's own variadic function that only formats its arguments and
// hands the text on (LIBSVM's `info(const char *fmt, ...)`: vsnprintf into
// a local buffer, then a call through the program's print-function
// pointer): whatever it is passed, nothing it does can carry a derivative
// back to its caller, so a call to it is kept as is in a derivative, as a
// call to printf is. Without this a variadic function was refused
// ("calls to the variadic function").
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_REPORTINGFUNCTIONS_H
#define ADCORE_REPORTINGFUNCTIONS_H

namespace llvm {
class Function;
} // namespace llvm

namespace adcore {

/// True when \p F is a variadic function defined in this module that only
/// reports: it returns nothing or an integer, reads no argument with
/// va_arg, writes only its own stack frame and globals of integers and
/// characters (with stores, memory intrinsics and strcpy-like copies), and
/// calls only functions
/// without derivatives (vsnprintf, fputs; its own callees that report in
/// the same way), intrinsics that move no number (va_start, va_end,
/// lifetime markers), and, through pointers, functions given only integers
/// and pointers into its frame or constants (a message's text).
bool isReportingVariadicFunction(const llvm::Function &F);

} // namespace adcore

#endif // ADCORE_REPORTINGFUNCTIONS_H
