//===- support/DeferredScaleMark.h - A scaling reverse mode defers -*- C++ -*-===//
//
// The metadata kind that prepare/ScaledFloatBits.cpp puts on the two
// multiplications by powers of two of a float given a new exponent in its
// bits (`(x' - x) * 2^h * 2^(d - h)`), where x is made in the same block by
// an operation or a call and nothing else takes x's derivative. Reverse
// mode multiplies by them after x's own adjoint rule, not before
// (reverse/DeferredScales.cpp): x's adjoint, 2^d times the result's, may
// pass the doubles where the adjoints of x's operands do not (openlibm's
// `__frexp_exp`: exp's value given the exponent of 2^1023, 2^1798 times its
// adjoint). (Apart from IRMarks.h, which most of adcore includes.)
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_DEFERREDSCALEMARK_H
#define ADCORE_SUPPORT_DEFERREDSCALEMARK_H

namespace adcore {

constexpr const char *DeferredScaleMetadata = "adcc.deferred.scale";

} // namespace adcore

#endif // ADCORE_SUPPORT_DEFERREDSCALEMARK_H
