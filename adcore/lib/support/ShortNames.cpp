//===- ShortNames.cpp - Names short enough for a message ------------------===//

#include "support/ShortNames.h"

#include "llvm/ADT/StringRef.h"

using namespace llvm;

namespace adcore {

std::string shortTemplates(const std::string &Name) {
  if (Name.size() <= 1000)
    return Name;
  std::string Out;
  int Depth = 0;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    // (`operator<`, `operator<<=`, `operator->`: not brackets.)
    bool Operator = (C == '<' || C == '>') &&
                    StringRef(Name).take_front(I).rtrim("<>-=").ends_with(
                        "operator");
    if (C == '<' && !Operator) {
      if (Depth++ == 0)
        Out += "<...";
      continue;
    }
    if (C == '>' && !Operator && Depth > 0) {
      if (--Depth == 0)
        Out += '>';
      continue;
    }
    if (Depth == 0)
      Out += C;
  }
  return Depth == 0 ? Out : Name;
}

} // namespace adcore
