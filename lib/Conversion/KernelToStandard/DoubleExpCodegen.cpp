//===- DoubleExpCodegen.cpp - fp32 exp and tanh as inline double code -----===//
//
// DoubleExp.h's steps emitted in arith (and llvm.intr.fma), step for step,
// so that the JIT's element loops compute what the runtime's host code
// computes, bit for bit, and LLVM vectorizes them: a libm call per element
// kept the loop scalar. A fused multiply-add is the LLVM intrinsic, since
// math.fma would become a call of libm's fma (MathToLibm).
//
//===----------------------------------------------------------------------===//

#include "Codegen.h"

#include "AscendPrec/Runtime/DoubleExp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/APFloat.h"

#include <cstring>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace de = ascendprec::runtime::doubleexp;

namespace {

/// Builds the double-precision steps at one insertion point.
class DoubleSteps {
public:
  DoubleSteps(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value f64(double value) {
    return arith::ConstantFloatOp::create(b, loc, b.getF64Type(), llvm::APFloat(value));
  }
  Value i64(int64_t value) { return arith::ConstantIntOp::create(b, loc, b.getI64Type(), value); }
  Value wide(Value x) { return arith::ExtFOp::create(b, loc, b.getF64Type(), x); }
  Value narrow(Value x) { return arith::TruncFOp::create(b, loc, b.getF32Type(), x); }
  Value cmp(arith::CmpFPredicate p, Value a, Value c) {
    return arith::CmpFOp::create(b, loc, p, a, c);
  }
  Value select(Value c, Value t, Value f) { return arith::SelectOp::create(b, loc, c, t, f); }
  Value fma(Value a, Value c, Value d) { return LLVM::FMAOp::create(b, loc, a, c, d); }

  /// 2^e for an i64 e in [-1022, 1023], as a double.
  Value powerOfTwo(Value e) {
    Value biased = arith::AddIOp::create(b, loc, e, i64(1023));
    Value bits = arith::ShLIOp::create(b, loc, biased, i64(52));
    return arith::BitcastOp::create(b, loc, b.getF64Type(), bits);
  }

  /// doubleexp::clamped: ordered comparisons are false for NaN, which
  /// passes through.
  Value clamped(Value x, double lowest, double highest) {
    Value low = f64(lowest), high = f64(highest);
    Value c = select(cmp(arith::CmpFPredicate::OLT, x, low), low, x);
    return select(cmp(arith::CmpFPredicate::OGT, c, high), high, c);
  }

  /// doubleexp::expOfClamped.
  Value expOfClamped(Value c) {
    Value scaled = arith::MulFOp::create(b, loc, c, f64(de::kInverseLn2));
    Value shifted = arith::AddFOp::create(b, loc, scaled, f64(de::kShifter));
    Value k = arith::SubFOp::create(b, loc, shifted, f64(de::kShifter));
    Value negK = arith::NegFOp::create(b, loc, k);
    Value r = fma(negK, f64(de::kLn2High), c);
    r = fma(negK, f64(de::kLn2Low), r);
    Value p = f64(de::kCoefficients[de::kDegree]);
    for (int i = de::kDegree - 1; i >= 0; --i)
      p = fma(p, r, f64(de::kCoefficients[i]));
    uint64_t shifterBits;
    std::memcpy(&shifterBits, &de::kShifter, sizeof shifterBits);
    Value shiftedBits = arith::BitcastOp::create(b, loc, b.getI64Type(), shifted);
    Value n = arith::SubIOp::create(b, loc, shiftedBits, i64(static_cast<int64_t>(shifterBits)));
    Value half = arith::ShRSIOp::create(b, loc, n, i64(1));
    Value rest = arith::SubIOp::create(b, loc, n, half);
    Value once = arith::MulFOp::create(b, loc, p, powerOfTwo(half));
    Value result = arith::MulFOp::create(b, loc, once, powerOfTwo(rest));
    return select(cmp(arith::CmpFPredicate::UNO, c, c), c, result);
  }

private:
  OpBuilder &b;
  Location loc;
};

} // namespace

Value codegen::emitExpFloat(OpBuilder &b, Location loc, Value x) {
  DoubleSteps steps(b, loc);
  Value c = steps.clamped(steps.wide(x), de::kLowestForFloat, de::kHighestForFloat);
  return steps.narrow(steps.expOfClamped(c));
}

Value codegen::emitTanhFloat(OpBuilder &b, Location loc, Value x) {
  DoubleSteps steps(b, loc);
  Value wide = steps.wide(x);
  Value negative = steps.cmp(arith::CmpFPredicate::OLT, wide, steps.f64(0.0));
  Value magnitude = steps.select(negative, arith::NegFOp::create(b, loc, wide), wide);
  Value twice = arith::MulFOp::create(b, loc, steps.f64(2.0), magnitude);
  Value e = steps.expOfClamped(steps.clamped(twice, de::kLowest, de::kHighest));
  Value ratio = arith::DivFOp::create(b, loc, arith::SubFOp::create(b, loc, e, steps.f64(1.0)),
                                      arith::AddFOp::create(b, loc, e, steps.f64(1.0)));
  Value t = steps.narrow(ratio);
  Value one = arith::ConstantFloatOp::create(b, loc, b.getF32Type(), llvm::APFloat(1.0f));
  Value result =
      steps.select(steps.cmp(arith::CmpFPredicate::OGT, magnitude, steps.f64(9.1)), one, t);
  result = steps.select(negative, arith::NegFOp::create(b, loc, result), result);
  return steps.select(steps.cmp(arith::CmpFPredicate::OGE, magnitude, steps.f64(0x1p-12)), result,
                      x);
}
