//===- UnknownEnzymeAttributes.cpp - enzyme_* attributes adcc lacks ------===//
//
// Clang ignores an attribute it does not know with a warning. An unknown
// attribute spelled `enzyme_*` or `enzyme::*` is one of Enzyme's that adcc
// does not implement (or a misspelled one): ignored, it could change
// derivatives silently. A consumer in front of the compile's diagnostic
// client turns Clang's warning about such an attribute into an error at
// the same place, and passes everything else through. Where the warning is
// off (-Wno-unknown-attributes, -w), it is turned back on as a remark, which
// neither option silences, so that the consumer still sees it; the other
// attributes' remarks are then dropped, as the user asked.
//
//===----------------------------------------------------------------------===//

#include "frontend/EnzymeChecks.h"

#include "adcore/EnzymeMarks.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/SmallString.h"

using namespace clang;

namespace adcc::frontend {
namespace {

constexpr unsigned UnknownAttributeIDs[] = {
    diag::warn_unknown_attribute_ignored,
    diag::warn_unknown_attribute_ignored_suggestion};

bool isUnknownAttribute(unsigned ID) {
  return llvm::is_contained(UnknownAttributeIDs, ID);
}

/// The attribute an unknown-attribute diagnostic names ("unknown attribute
/// 'enzyme_foo' ignored"): the text between the first pair of quotes.
std::string attributeName(const Diagnostic &Info) {
  SmallString<128> Text;
  Info.FormatDiagnostic(Text);
  StringRef Rest = StringRef(Text).split('\'').second;
  return Rest.split('\'').first.str();
}

class EnzymeAttributeFilter : public DiagnosticConsumer {
public:
  EnzymeAttributeFilter(DiagnosticsEngine &Diags,
                        std::unique_ptr<DiagnosticConsumer> Owned,
                        DiagnosticConsumer *Target, bool OthersSilenced)
      : Diags(Diags), Owned(std::move(Owned)), Target(Target),
        OthersSilenced(OthersSilenced) {}

  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Target->BeginSourceFile(LO, PP);
    syncCounts();
  }
  void EndSourceFile() override {
    Target->EndSourceFile();
    syncCounts();
  }
  void finish() override {
    Target->finish();
    syncCounts();
  }
  void clear() override {
    Target->clear();
    syncCounts();
  }
  bool IncludeInDiagnosticCounts() const override {
    return Target->IncludeInDiagnosticCounts();
  }

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    if (isUnknownAttribute(Info.getID())) {
      std::string Name = attributeName(Info);
      if (adcore::isEnzymeMarkSpelling(Name)) {
        unsigned ID = Diags.getCustomDiagID(
            DiagnosticsEngine::Error,
            "unknown Enzyme attribute '%0': adcc does not know what it does "
            "to derivatives (docs/api.md lists Enzyme's attributes adcc "
            "supports)");
        Diags.Report(Info.getLocation(), ID) << Name;
        return;
      }
      if (OthersSilenced)
        return;
    }
    Target->HandleDiagnostic(Level, Info);
    syncCounts();
  }

private:
  /// The counts are the client's: -verify's, for one, replaces them by
  /// the number of mismatches when the file ends.
  void syncCounts() {
    NumErrors = Target->getNumErrors();
    NumWarnings = Target->getNumWarnings();
  }

  DiagnosticsEngine &Diags;
  std::unique_ptr<DiagnosticConsumer> Owned;
  DiagnosticConsumer *Target;
  bool OthersSilenced;
};

} // namespace

void rejectUnknownEnzymeAttributes(CompilerInstance &CI) {
  DiagnosticsEngine &Diags = CI.getDiagnostics();
  DiagnosticConsumer *Target = Diags.getClient();
  if (!Target)
    return;
  bool Silenced = Diags.getIgnoreAllWarnings() ||
                  Diags.getDiagnosticLevel(diag::warn_unknown_attribute_ignored,
                                           SourceLocation()) ==
                      DiagnosticsEngine::Ignored;
  if (Silenced)
    for (unsigned ID : UnknownAttributeIDs)
      Diags.setSeverity(ID, diag::Severity::Remark, SourceLocation());
  std::unique_ptr<DiagnosticConsumer> Owned;
  if (Diags.ownsClient())
    Owned = Diags.takeClient();
  Diags.setClient(new EnzymeAttributeFilter(Diags, std::move(Owned), Target,
                                            Silenced),
                  /*ShouldOwnClient=*/true);
}

} // namespace adcc::frontend
