//===- adcore/Request.h - One derivative request --------------*- C++ -*-===//
//
// A derivative request is a value: which function, which kind of derivative,
// where it was asked for. Requests are collected from a module (see
// RequestCollector.h) and are the keys under which generated derivatives are
// memoized.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_REQUEST_H
#define ADCORE_REQUEST_H

#include "adcore/EntryPoints.h"

namespace llvm {
class CallBase;
class Function;
class raw_ostream;
} // namespace llvm

namespace adcore {

struct Request {
  RequestKind Kind = RequestKind::Forward;
  /// The function to differentiate.
  llvm::Function *Primal = nullptr;
  /// The call that asked for the derivative (an entry-point call).
  llvm::CallBase *Site = nullptr;
  /// Number of derivative directions carried at once.
  unsigned Width = 1;
};

/// Prints \p R on one line, e.g.
///   forward mode of 'f' (width 1) requested in 'main' at t.c:12:3
void print(llvm::raw_ostream &OS, const Request &R);

} // namespace adcore

#endif // ADCORE_REQUEST_H
