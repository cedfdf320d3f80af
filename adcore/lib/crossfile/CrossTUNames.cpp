//===- CrossTUNames.cpp - Names of derivatives made at link time ----------===//
//
// See adcore/CrossTU.h. The name of a derivative made at link time is
//
//   __adcc_xtu.<mode><width>.<flags>.<activities>.O<level>.<function>
//
// mode: f forward, a augmented sweep, r reverse sweep, g both sweeps run
// back to back (a combined gradient); flags: three digits, whether it
// returns the primal result, the result's shadow, and whether the memory
// is stable between the sweeps, then `s<level>` for a forward derivative's
// scratch level above 0 (DerivativeKey::ScratchLevel), `t<level>` for a
// reverse derivative's tape level above 0 (DerivativeKey::TapeLevel) and
// `n<hex>r<hex>` for arguments whose shadows may be null; activities: one
// letter per
// argument (c const, d duplicated, n duplicated without the primal, a
// active).
//
// The function that zeroes the shadows a derivative made at link time uses
// (crossTUReleaseSymbol) is named `__adcc_xtu.z.` and the derivative's name
// less `__adcc_xtu.`; those that begin and end a request's marks of pointer
// shadows (crossTUMarksSymbol), `__adcc_xtu.mb.` and `__adcc_xtu.me.`.
//
//===----------------------------------------------------------------------===//

#include "adcore/CrossTU.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {
namespace {

struct ActivityLetter {
  ArgActivity Activity;
  char Letter;
};

const ActivityLetter ActivityLetters[] = {
    {ArgActivity::Const, 'c'},
    {ArgActivity::Dup, 'd'},
    {ArgActivity::DupNoNeed, 'n'},
    {ArgActivity::Active, 'a'},
};

char letterOf(ArgActivity A) {
  for (const ActivityLetter &L : ActivityLetters)
    if (L.Activity == A)
      return L.Letter;
  llvm_unreachable("an activity without a letter");
}

std::optional<ArgActivity> activityOf(char C) {
  for (const ActivityLetter &L : ActivityLetters)
    if (L.Letter == C)
      return L.Activity;
  return std::nullopt;
}

char modeLetter(const CrossTURequest &R) {
  if (R.Combined)
    return 'g';
  switch (R.Key.Mode) {
  case DerivativeMode::Forward:
    return 'f';
  case DerivativeMode::Augmented:
    return 'a';
  case DerivativeMode::Reverse:
    return 'r';
  }
  llvm_unreachable("unknown derivative mode");
}

} // namespace

OptimizationLevel crossTULevel(unsigned OptLevel) {
  const OptimizationLevel Levels[] = {
      OptimizationLevel::O0, OptimizationLevel::O1, OptimizationLevel::O2,
      OptimizationLevel::O3};
  return Levels[std::min(OptLevel, 3u)];
}

std::string crossTUSymbol(const CrossTURequest &R) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << CrossTUPrefix << modeLetter(R) << R.Key.Width << '.'
     << unsigned(R.Key.ReturnPrimal) << unsigned(R.Key.ReturnShadow)
     << unsigned(R.Key.StableMemory);
  // (Forward over forward: the level of the scratch shadows behind null
  // shadows, which the caller's derivative gives its callees: without it
  // the link step made a callee's outer derivative at level 0, the inner
  // derivative's.)
  if (R.Key.ScratchLevel)
    OS << 's' << R.Key.ScratchLevel;
  // (Reverse over reverse: the tape level the caller's derivative gives
  // its callees. Without it the link step made a callee's derivative on
  // level 0, where its records went between the caller's inner augmented
  // sweep's and the reverse sweep that pops them.)
  if (R.Key.TapeLevel)
    OS << 't' << R.Key.TapeLevel;
  // (Arguments whose shadows may be null: NullableShadows.h.)
  if (R.Key.NullableShadows || R.Key.NullReaching)
    OS << 'n' << utohexstr(R.Key.NullableShadows) << 'r'
       << utohexstr(R.Key.NullReaching);
  OS << '.';
  for (ArgActivity A : R.Key.Args)
    OS << letterOf(A);
  OS << ".O" << R.OptLevel << '.' << R.Primal;
  return Out;
}

std::string crossTUReleaseSymbol(StringRef DerivativeSymbol) {
  DerivativeSymbol.consume_front(CrossTUPrefix);
  return (CrossTUPrefix + "z." + DerivativeSymbol).str();
}

std::optional<std::string> releasedCrossTUSymbol(StringRef Name) {
  if (!Name.consume_front(CrossTUPrefix) || !Name.consume_front("z."))
    return std::nullopt;
  std::string Symbol = (CrossTUPrefix + Name).str();
  if (!parseCrossTUSymbol(Symbol))
    return std::nullopt;
  return Symbol;
}

std::string crossTUMarksSymbol(StringRef DerivativeSymbol, bool Begin) {
  DerivativeSymbol.consume_front(CrossTUPrefix);
  return (CrossTUPrefix + (Begin ? "mb." : "me.") + DerivativeSymbol).str();
}

std::optional<std::pair<std::string, bool>>
marksCrossTUSymbol(StringRef Name) {
  if (!Name.consume_front(CrossTUPrefix))
    return std::nullopt;
  bool Begin = Name.consume_front("mb.");
  if (!Begin && !Name.consume_front("me."))
    return std::nullopt;
  std::string Symbol = (CrossTUPrefix + Name).str();
  if (!parseCrossTUSymbol(Symbol))
    return std::nullopt;
  return std::make_pair(Symbol, Begin);
}

bool crossTUSymbolCarries(const DerivativeKey &Key) {
  DerivativeKey Named;
  Named.Primal = Key.Primal;
  Named.Mode = Key.Mode;
  Named.Args = Key.Args;
  Named.ReturnPrimal = Key.ReturnPrimal;
  Named.ReturnShadow = Key.ReturnShadow;
  Named.Width = Key.Width;
  Named.StableMemory = Key.StableMemory;
  Named.TapeLevel = Key.TapeLevel;
  Named.ScratchLevel = Key.ScratchLevel;
  Named.NullableShadows = Key.NullableShadows;
  Named.NullReaching = Key.NullReaching;
  return Named.tie() == Key.tie();
}

std::optional<CrossTURequest> parseCrossTUSymbol(StringRef Name) {
  if (!Name.consume_front(CrossTUPrefix))
    return std::nullopt;
  SmallVector<StringRef, 5> Parts;
  Name.split(Parts, '.', /*MaxSplit=*/4);
  if (Parts.size() != 5 || Parts[0].size() < 2 || Parts[1].size() < 3 ||
      !Parts[3].starts_with("O") || Parts[4].empty())
    return std::nullopt;
  CrossTURequest R;
  switch (Parts[0][0]) {
  case 'f':
    R.Key.Mode = DerivativeMode::Forward;
    break;
  case 'a':
    R.Key.Mode = DerivativeMode::Augmented;
    break;
  case 'r':
    R.Key.Mode = DerivativeMode::Reverse;
    break;
  case 'g':
    R.Key.Mode = DerivativeMode::Augmented;
    R.Combined = true;
    break;
  default:
    return std::nullopt;
  }
  if (Parts[0].drop_front().getAsInteger(10, R.Key.Width) || R.Key.Width == 0)
    return std::nullopt;
  StringRef Nullable = Parts[1].drop_front(3);
  // (A letter and a decimal number, in the order crossTUSymbol writes.)
  auto Level = [&](char Letter, unsigned &Out) {
    if (!Nullable.consume_front(StringRef(&Letter, 1)))
      return true;
    size_t Digits = Nullable.find_first_not_of("0123456789");
    if (Nullable.take_front(Digits).getAsInteger(10, Out))
      return false;
    Nullable = Nullable.drop_front(Digits == StringRef::npos ? Nullable.size()
                                                             : Digits);
    return true;
  };
  if (!Level('s', R.Key.ScratchLevel) || !Level('t', R.Key.TapeLevel))
    return std::nullopt;
  if (!Nullable.empty()) {
    auto [N, Reach] = Nullable.split('r');
    if (!N.consume_front("n") || N.getAsInteger(16, R.Key.NullableShadows) ||
        Reach.getAsInteger(16, R.Key.NullReaching))
      return std::nullopt;
  }
  for (char C : Parts[1].take_front(3))
    if (C != '0' && C != '1')
      return std::nullopt;
  R.Key.ReturnPrimal = Parts[1][0] == '1';
  R.Key.ReturnShadow = Parts[1][1] == '1';
  R.Key.StableMemory = Parts[1][2] == '1';
  for (char C : Parts[2]) {
    std::optional<ArgActivity> A = activityOf(C);
    if (!A)
      return std::nullopt;
    R.Key.Args.push_back(*A);
  }
  if (Parts[3].drop_front().getAsInteger(10, R.OptLevel))
    return std::nullopt;
  R.Primal = Parts[4].str();
  return R;
}

} // namespace adcore
