//===- EntryPoints.cpp - Enzyme-compatible entry points ------------------===//

#include "adcore/EntryPoints.h"

#include <iterator>

using namespace llvm;

namespace adcore {
namespace {

struct EntryPointRow {
  RequestKind Kind;
  const char *Name;
  const char *Description;
};

// One row per entry point. Longer names that contain a shorter one must come
// first: matching stops at the first row whose name is a substring.
constexpr EntryPointRow EntryPointTable[] = {
    {RequestKind::AugmentSize, "__enzyme_augmentsize", "augmented tape size"},
    {RequestKind::AugmentedForward, "__enzyme_augmentfwd",
     "augmented forward (split reverse mode)"},
    {RequestKind::SplitReverse, "__enzyme_reverse",
     "reverse sweep (split reverse mode)"},
    {RequestKind::ForwardSplit, "__enzyme_fwdsplit", "split forward mode"},
    {RequestKind::Forward, "__enzyme_fwddiff", "forward mode"},
    {RequestKind::Reverse, "__enzyme_autodiff", "reverse mode"},
    {RequestKind::Batch, "__enzyme_batch", "batched primal"},
    {RequestKind::ErrorEstimate, "__enzyme_error_estimate",
     "forward-mode error estimation"},
};

const EntryPointRow &rowFor(RequestKind Kind) {
  for (const EntryPointRow &Row : EntryPointTable)
    if (Row.Kind == Kind)
      return Row;
  // Every enumerator has a row; the table is checked by a unit test.
  return EntryPointTable[0];
}

} // namespace

StringRef describe(RequestKind Kind) { return rowFor(Kind).Description; }

StringRef entryPointName(RequestKind Kind) { return rowFor(Kind).Name; }

std::optional<RequestKind> classifyEntryPoint(StringRef CalleeName) {
  for (const EntryPointRow &Row : EntryPointTable)
    if (CalleeName.contains(Row.Name))
      return Row.Kind;
  return std::nullopt;
}

} // namespace adcore
