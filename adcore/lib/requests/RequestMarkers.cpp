//===- RequestMarkers.cpp - The markers of an Enzyme-style request ------===//

#include "RequestMarkers.h"
#include "RequestValueTypes.h"

using namespace llvm;

namespace adcore {
namespace {

struct MarkerRow {
  const char *Name;
  Marker Kind;
};

constexpr MarkerRow MarkerTable[] = {
    {"enzyme_dup", Marker::Dup},
    {"enzyme_dupnoneed", Marker::DupNoNeed},
    {"enzyme_const", Marker::Const},
    {"enzyme_dupv", Marker::DupV},
    {"enzyme_out", Marker::Out},
    {"enzyme_width", Marker::Width},
    {"enzyme_primal_return", Marker::PrimalReturn},
    {"enzyme_const_return", Marker::ConstReturn},
    {"enzyme_noret", Marker::NoRet},
    {"enzyme_interleave", Marker::Interleave},
    {"enzyme_allocated", Marker::Allocated},
    {"enzyme_tape", Marker::Tape},
    {"enzyme_nofree", Marker::NoFree},
    {"enzyme_runtime_activity", Marker::RuntimeActivity},
};

} // namespace

Marker markerOf(Value *V, StringRef &Name) {
  Name = markerName(V);
  if (Name.empty())
    return Marker::None;
  for (const MarkerRow &Row : MarkerTable)
    if (Name == Row.Name)
      return Row.Kind;
  return Marker::Unknown;
}

} // namespace adcore
