//===- support/ShortNames.h - Names short enough for a message -*- C++ -*-===//
//
// A demangled C++ name can run to thousands of characters (an ODE solver's
// iterator whose template arguments are tableaus of hexadecimal floats);
// messages show such a name with its template arguments elided.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_SHORTNAMES_H
#define ADCORE_SUPPORT_SHORTNAMES_H

#include <string>

namespace adcore {

/// \p Name with each outermost template argument list shortened to `<...>`
/// when the name is longer than 1000 characters; as it is when shorter, or
/// where its brackets do not pair (an operator's name).
std::string shortTemplates(const std::string &Name);

} // namespace adcore

#endif // ADCORE_SUPPORT_SHORTNAMES_H
