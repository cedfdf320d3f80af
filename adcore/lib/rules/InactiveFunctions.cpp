//===- InactiveFunctions.cpp - Functions without derivatives -------------===//

#include "InactiveFunctions.h"
#include "BlasRules.h"
#include "MpiRules.h"
#include "OpenMPRuntime.h"
#include "ReportingFunctions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Intrinsics.h"

#include <string>

using namespace llvm;

namespace adcore {
namespace {

// One name per row.
constexpr const char *InactiveFunctionTable[] = {
    // output
    "printf",
    "fprintf",
    "sprintf",
    "snprintf",
    "vprintf",
    "vfprintf",
    "puts",
    "fputs",
    "putchar",
    "fputc",
    "putc",
    // (fprintf of a string without conversions, from -O1)
    "fwrite",
    "fflush",
    "perror",
    "__printf_chk",
    "__fprintf_chk",
    "__sprintf_chk",
    "__snprintf_chk",
    "vsprintf",
    "vsnprintf",
    "__vsnprintf_chk",
    "__vprintf_chk",
    "__vfprintf_chk",
    "__vsprintf_chk",
    "__dprintf_chk",
    // process control and assertions
    "abort",
    "exit",
    "_exit",
    "__assert_fail",
    "__cxa_pure_virtual",
    // failed checks of _FORTIFY_SOURCE and the stack protector
    "__chk_fail",
    "__stack_chk_fail",
    // locks (libstdc++'s debug mode guards its iterator lists with them)
    "pthread_mutex_lock",
    "pthread_mutex_unlock",
    "pthread_mutex_trylock",
    // time
    "time",
    "clock",
    "clock_gettime",
    "gettimeofday",
    // random numbers (their results are constants of the derivative)
    "rand",
    "srand",
    "random",
    "srandom",
    "drand48",
    "srand48",
    // the same generators on a state of the caller's (integers only: the
    // _r forms that store a double, drand48_r and erand48_r, are not here)
    "erand48",
    "lrand48",
    "nrand48",
    "mrand48",
    "jrand48",
    "seed48",
    "lcong48",
    "rand_r",
    "random_r",
    "srandom_r",
    "lrand48_r",
    "nrand48_r",
    "mrand48_r",
    "jrand48_r",
    "srand48_r",
    "seed48_r",
    "lcong48_r",
    // math functions with integer results: rounding to an integer, the
    // exponent (the C library's spellings for float, double, long double)
    "lround", "lroundf", "lroundl", "llround", "llroundf", "llroundl",
    "lrint", "lrintf", "lrintl", "llrint", "llrintf", "llrintl",
    "ilogb", "ilogbf", "ilogbl",
    // comparisons and sizes
    "memcmp",
    "bcmp", // memcmp compared only for equality (LLVM's form of it)
    "strcmp",
    "strncmp",
    "strlen",
    "getenv",
    "malloc_usable_size",
    // numbers parsed from text (tinyexpr's parser reads its constants with
    // strtod): constants of the derivative, as the text is
    "strtod",
    "strtof",
    "strtold",
    "atof",
    // hashes of keys (std::hash<std::string>, std::unordered_map)
    "_ZSt11_Hash_bytesPKvmm",
    "_ZSt15_Fnv_hash_bytesPKvmm",
    // adcc's own run-time reports
    "adcc_unknown_derivative",
    "adcc_exception_caught",
    "adcc_derivative_stopped",
    "adcc_split_check",
    // the order of a sort (prepare/SortCalls.cpp), and giving it back
    "adcc_sort_permutation",
    "adcc_sort_permutation_r",
    "adcc_sort_release",
    // where bsearch finds its element (prepare/SortCalls.cpp)
    "adcc_search_offset",
    // scratch shadows of constant memory (ScratchShadows.h)
    "adcc_scratch_shadow_begin",
    "adcc_scratch_shadow_end",
    "adcc_runtime_activity_begin",
    "adcc_runtime_activity_end",
    // their scratch shadows behind null shadow pointers (NullShadowGuards.h)
    // the marks of shadow bytes holding pointers' shadows
    // (PointerShadowMarks.h)
    "adcc_shadow_marks_begin",
    "adcc_shadow_mark_pointer",
    "adcc_shadow_clear_pointers",
    "adcc_shadow_mark_stored_pointer",
    "adcc_shadow_unmark_pointer",
    "adcc_shadow_marks_owned",
    "adcc_shadow_marks_end",
    "adcc_shadow_mark_loaded_pointer",
    "adcc_shadow_marks_pair",
    "adcc_shadow_marks_nest",
    "adcc_shadow_marks_unnest",
    // a y[i] store's check, placed once all requests are done
    // (SweepShadowClears.h): a derivative differentiated again keeps it
    "adcc.shadow.clear.sweep",
    "adcc_null_shadows_enter",
    "adcc_null_shadows_leave",
    "adcc_null_shadows_suspend",
    "adcc_null_shadows_resume",
    "adcc_null_shadows_level",
    "adcc_null_shadows_restore",
    "adcc_null_shadow",
    "adcc_null_shadow_strip",
    // the end of a reverse sweep of MPI code (MpiRules.h)
    "adcc_mpi_drain",
};

// Functions by the start of their names: C++ library functions that only
// handle characters (mangled names), and the sanitizers' run-time calls.
// Their calls are inactive whether or not the translation unit has their
// bodies (inline members are defined in the headers, the
// others are explicit instantiations in libstdc++). Input (operator>> into a
// double) is not among them: it writes a value whose derivative must be
// reset.
constexpr const char *InactivePrefixTable[] = {
    // std::string and std::wstring (C++11 ABI), their operator+ and
    // conversions
    "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE",
    "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE",
    "_ZNSt7__cxx1112basic_stringIwSt11char_traitsIwESaIwEE",
    "_ZNKSt7__cxx1112basic_stringIwSt11char_traitsIwESaIwEE",
    "_ZStplIcSt11char_traitsIcESaIcEE",
    "_ZNSt7__cxx119to_string",
    "_ZN9__gnu_cxx12__to_xstringINSt7__cxx1112basic_stringIcSt11char_"
    "traitsIcESaIcEEEcEE",
    "_ZNSt8__detail18__to_chars_",
    "_ZNSt11char_traitsIcE",
    // std::unordered_map's bucket-count arithmetic
    "_ZNKSt8__detail20_Prime_rehash_policy",
    "_ZNSaIcE",
    // string streams
    "_ZNSt7__cxx1118basic_stringstreamIcSt11char_traitsIcESaIcEE",
    "_ZNKSt7__cxx1118basic_stringstreamIcSt11char_traitsIcESaIcEE",
    "_ZNSt7__cxx1119basic_ostringstreamIcSt11char_traitsIcESaIcEE",
    "_ZNKSt7__cxx1119basic_ostringstreamIcSt11char_traitsIcESaIcEE",
    "_ZNSt7__cxx1115basic_stringbufIcSt11char_traitsIcESaIcEE",
    "_ZNKSt7__cxx1115basic_stringbufIcSt11char_traitsIcESaIcEE",
    // output streams: operator<< (of numbers too), put, write, flush, endl
    "_ZNSolsE",
    "_ZNSo9_M_insertI",
    "_ZNSo3put",
    "_ZNSo5write",
    "_ZNSo5flush",
    // (std::ostream and std::iostream made over a stream buffer given to
    // their constructors, and destroyed)
    "_ZNSoC",
    "_ZNSoD",
    "_ZNSd",
    "_ZStlsISt11char_traitsIcEE",
    "_ZStlsIcSt11char_traitsIcESaIcEE",
    "_ZSt16__ostream_insertIcSt11char_traitsIcEE",
    "_ZSt4endlIcSt11char_traitsIcEE",
    "_ZSt5flushIcSt11char_traitsIcEE",
    "_ZNSt9basic_iosIcSt11char_traitsIcEE",
    "_ZNKSt9basic_iosIcSt11char_traitsIcEE",
    "_ZNSt8ios_base",
    "_ZNKSt5ctypeIcE",
    "_ZNSt6locale",
    // wide output streams (std::wcout), the same functions for wchar_t
    "_ZNSt13basic_ostreamIwSt11char_traitsIwEE",
    "_ZStlsIwSt11char_traitsIwEE",
    "_ZSt16__ostream_insertIwSt11char_traitsIwEE",
    "_ZSt4endlIwSt11char_traitsIwEE",
    "_ZSt5flushIwSt11char_traitsIwEE",
    "_ZNSt9basic_iosIwSt11char_traitsIwEE",
    "_ZNKSt9basic_iosIwSt11char_traitsIwEE",
    "_ZNKSt5ctypeIwE",
    // input streams (std::cin, std::istringstream, std::ifstream): what they
    // read is a constant of the derivative. Reading a floating-point value
    // (operator>>(double &)) also resets the derivative of the variable
    // read into (InputValues.cpp).
    "_ZNSi",
    "_ZNSt13basic_istreamIwSt11char_traitsIwEE",
    "_ZStrsIcSt11char_traitsIcE",
    "_ZStrsIwSt11char_traitsIwE",
    "_ZSt7getlineIcSt11char_traitsIcESaIcEE",
    "_ZSt7getlineIwSt11char_traitsIwESaIwEE",
    "_ZNSt7__cxx1119basic_istringstreamIcSt11char_traitsIcESaIcEE",
    "_ZNKSt7__cxx1119basic_istringstreamIcSt11char_traitsIcESaIcEE",
    "_ZNSt14basic_ifstreamIcSt11char_traitsIcEE",
    "_ZNKSt14basic_ifstreamIcSt11char_traitsIcEE",
    "_ZNSt14basic_ofstreamIcSt11char_traitsIcEE",
    "_ZNKSt14basic_ofstreamIcSt11char_traitsIcEE",
    "_ZNSt13basic_filebufIcSt11char_traitsIcEE",
    "_ZNKSt13basic_filebufIcSt11char_traitsIcEE",
    // stream buffers (sputn, sputc, sgetc, pubsync ... and their virtual
    // functions when called directly)
    "_ZNSt15basic_streambufIcSt11char_traitsIcEE",
    "_ZNKSt15basic_streambufIcSt11char_traitsIcEE",
    "_ZNSt15basic_streambufIwSt11char_traitsIwEE",
    "_ZNKSt15basic_streambufIwSt11char_traitsIwEE",
    // the sanitizers' reports and checks (-fsanitize=undefined, address):
    // they read values, never change them
    "__ubsan_handle_",
    "__asan_",
    "__sanitizer_",
    // the begin and end of a request's marks of pointer shadows, made at
    // link time with the derivative of another file's function
    // (crossTUMarksSymbol)
    "__adcc_xtu.mb.",
    "__adcc_xtu.me.",
    // the library's error reports and exception objects made from strings
    "_ZSt17__throw_bad_alloc",
    "_ZSt19__throw_logic_error",
    "_ZSt20__throw_length_error",
    "_ZSt20__throw_out_of_range",
    "_ZSt24__throw_out_of_range_fmt",
    "_ZSt24__throw_invalid_argument",
    "_ZSt21__throw_runtime_error",
    "_ZSt20__throw_domain_error",
    "_ZSt19__throw_range_error",
    "_ZSt22__throw_overflow_error",
    "_ZSt23__throw_underflow_error",
    // (every class of <stdexcept>: Boost.Math's and uBLAS's error policies
    // build a std::domain_error or std::overflow_error on their error paths)
    "_ZNSt13runtime_error",
    "_ZNSt11logic_error",
    "_ZNSt12domain_error",
    "_ZNSt12length_error",
    "_ZNSt12out_of_range",
    "_ZNSt16invalid_argument",
    "_ZNSt11range_error",
    "_ZNSt14overflow_error",
    "_ZNSt15underflow_error",
    // the other exception classes of the library (<exception>, <new>,
    // <typeinfo>, <functional>, <optional>, <variant>, <any>,
    // <system_error>): std::visit's bad_variant_access path destroys a
    // std::exception at -O0
    "_ZNSt9exception",
    "_ZNKSt9exception",
    "_ZNSt9bad_alloc",
    "_ZNSt20bad_array_new_length",
    "_ZNSt8bad_cast",
    "_ZNSt10bad_typeid",
    "_ZNSt17bad_function_call",
    "_ZNSt19bad_optional_access",
    "_ZNSt18bad_variant_access",
    "_ZNSt12bad_any_cast",
    "_ZNSt12system_error",
    "_ZSt16__throw_bad_cast",
    "_ZSt25__throw_bad_function_call",
    // -D_GLIBCXX_DEBUG's report of a misuse (__gnu_debug::_Error_formatter):
    // it collects the parameters of the message (iterators' and
    // containers' addresses, names, integers) and prints it
    "_ZN11__gnu_debug16_Error_formatter",
    "_ZNK11__gnu_debug16_Error_formatter",
};

// Library headers whose functions only handle characters, by the end of
// their path (their inlined code keeps its location: the rows of
// InactivePrefixTable for std::string and char_traits, inlined).
constexpr const char *CharacterHeaderTable[] = {
    "/bits/char_traits.h",
};

// Global variables of the library, one name prefix per row.
constexpr const char *InactiveGlobalPrefixTable[] = {
    // -D_GLIBCXX_DEBUG: the one _Error_formatter (a static of
    // _Error_formatter::_S_at) that collects a failed check's parameters
    "_ZZN11__gnu_debug16_Error_formatter",
};

// Classes of the library whose objects hold no derivatives: streams,
// stream buffers and locales, by the start of their IR type names. A local
// object of one has no shadow, and calls of its virtual functions (a
// stream buffer's overflow, xsputn, underflow) are no calls with
// derivatives.
constexpr const char *InactiveTypePrefixTable[] = {
    "class.std::basic_streambuf",
    "class.std::__cxx11::basic_stringbuf",
    "class.std::basic_filebuf",
    "class.std::basic_ios",
    "class.std::basic_istream",
    "class.std::basic_ostream",
    "class.std::basic_iostream",
    "class.std::__cxx11::basic_istringstream",
    "class.std::__cxx11::basic_ostringstream",
    "class.std::__cxx11::basic_stringstream",
    "class.std::basic_ifstream",
    "class.std::basic_ofstream",
    "class.std::basic_fstream",
    "class.std::locale",
    "class.std::ios_base",
};

} // namespace

/// An intrinsic whose result is integers, computed from integers or
/// floating-point values (llvm.smin, llvm.ctpop, llvm.sadd.with.overflow,
/// llvm.lrint, llvm.is.fpclass, x86's cvtpd2dq): sizes, counts, overflow
/// checks and rounded values, never a derivative. (No pointer appears in
/// its type.) Not those that move bits around (bswap, bitreverse, funnel
/// shifts), which may carry a double's bits: those stay errors.
static bool isIntegerIntrinsic(const Function &F) {
  switch (F.getIntrinsicID()) {
  case Intrinsic::bswap:
  case Intrinsic::bitreverse:
  case Intrinsic::fshl:
  case Intrinsic::fshr:
    return false;
  default:
    break;
  }
  auto IntegerOnly = [](Type *T) {
    if (auto *ST = dyn_cast<StructType>(T))
      return all_of(ST->elements(),
                    [](Type *E) { return E->isIntOrIntVectorTy(); });
    return T->isIntOrIntVectorTy();
  };
  auto Number = [&](Type *T) {
    return IntegerOnly(T) || T->isFPOrFPVectorTy() || T->isMetadataTy();
  };
  FunctionType *FT = F.getFunctionType();
  return F.isIntrinsic() && IntegerOnly(FT->getReturnType()) &&
         all_of(FT->params(), Number);
}

bool isBookkeepingIntrinsic(unsigned IntrinsicID) {
  switch (IntrinsicID) {
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::prefetch:
  case Intrinsic::var_annotation:
  case Intrinsic::ptr_annotation:
  case Intrinsic::annotation:
  case Intrinsic::stacksave:
  case Intrinsic::stackrestore:
  case Intrinsic::is_fpclass:
  case Intrinsic::fake_use:
    return true;
  default:
    return false;
  }
}

bool isKnownInactiveFunction(const Function &F) {
  // (The size of the object a pointer points into: _FORTIFY_SOURCE's and
  // -fsanitize=object-size's checks.)
  if (isIntegerIntrinsic(F) || F.getIntrinsicID() == Intrinsic::objectsize)
    return true;
  StringRef Name = F.getName();
  // A member's ref-qualifier (`str() const &` in C++20: _ZNKR...) does not
  // change what it does: the rows name members without it.
  std::string Unqualified;
  if (Name.starts_with("_ZN")) {
    size_t At = 3;
    while (At < Name.size() && StringRef("rVK").contains(Name[At]))
      ++At;
    if (At < Name.size() && (Name[At] == 'R' || Name[At] == 'O')) {
      Unqualified = (Name.take_front(At) + Name.drop_front(At + 1)).str();
      Name = Unqualified;
    }
  }
  for (const char *Row : InactivePrefixTable)
    if (Name.starts_with(Row))
      return true;
  // (A program's variadic function that only formats and prints.)
  if (!F.isDeclaration())
    return isReportingVariadicFunction(F);
  // (OpenMP scheduling, thread ids, barriers, critical sections.)
  if (isKeptOpenMPCall(F))
    return true;
  for (const char *Row : InactiveFunctionTable)
    if (Name == Row)
      return true;
  return isInactiveMpiFunction(F) || isInactiveBlasFunction(F);
}

bool isKnownInactiveMemory(const Value *Obj) {
  if (auto *Call = dyn_cast_or_null<CallBase>(Obj)) {
    const Function *Callee = Call->getCalledFunction();
    return Callee && isKnownInactiveFunction(*Callee);
  }
  auto *GV = dyn_cast_or_null<GlobalVariable>(Obj);
  if (!GV)
    return false;
  for (const char *Row : InactiveGlobalPrefixTable)
    if (GV->getName().starts_with(Row))
      return true;
  return false;
}

bool isInlinedCharacterCode(const Instruction &I) {
  const DILocation *Loc = I.getDebugLoc().get();
  if (!Loc)
    return false;
  StringRef File = Loc->getFilename();
  return any_of(CharacterHeaderTable,
                [&](const char *Row) { return File.ends_with(Row); });
}

bool isKnownInactiveType(const Type *T) {
  const auto *ST = dyn_cast<StructType>(T);
  if (!ST || !ST->hasName())
    return false;
  StringRef Name = ST->getName();
  for (const char *Row : InactiveTypePrefixTable)
    if (Name.starts_with(Row))
      return true;
  return false;
}

} // namespace adcore
