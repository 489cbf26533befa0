//===- VectorCodegen.cpp - vop and vcast as inline arith/math code --------===//
//
// A vector op computes in its `compute` dtype and rounds every step's result
// to it, as the vector unit writes each instruction's result in that dtype.
// A 16-bit compute dtype is represented in f32: each step computes in f32
// and is rounded back (truncf, extf). For + - * / and sqrt that is the
// correctly rounded 16-bit result (f32 has more than 2p+2 bits for p = 11
// and 8); for libm functions it is the f32 result rounded once more
// (docs/numerics.md gives the bound). Composite kinds (sigmoid, gelu, ...)
// are the documented step sequences, each step rounded. Saturation (the
// SoC's overflow mode) maps Inf to the dtype's max and NaN to 0 after every
// rounding. Results leave in the output dtype with the op's rounding mode.
//
//===----------------------------------------------------------------------===//

#include "Codegen.h"

#include "AscendPrec/Runtime/HostTensor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;
using namespace ascendprec::kernel::codegen;

namespace {

bool isSixteenBitFloat(Type type) { return type.isF16() || type.isBF16(); }

double largestFinite(Type type) {
  if (type.isF16())
    return 65504.0;
  if (type.isBF16())
    return llvm::APFloat::getLargest(llvm::APFloat::BFloat()).convertToDouble();
  if (type.isF32())
    return std::numeric_limits<float>::max();
  return std::numeric_limits<double>::max();
}

/// Builds the element computations of one vector op.
class Emitter {
public:
  Emitter(OpBuilder &b, Location loc, CodegenContext &context, Type compute,
          bool unsignedCompute = false)
      : b(b), loc(loc), context(context), compute(compute), unsignedCompute(unsignedCompute) {
    repr = isSixteenBitFloat(compute) ? b.getF32Type() : compute;
  }

  Type representation() const { return repr; }
  bool floatCompute() const { return isa<FloatType>(repr); }

  Value constant(double value) {
    if (auto floatType = dyn_cast<FloatType>(repr)) {
      // The constant as the compute dtype holds it (0.044715 in fp16 is
      // 0.04470825...), carried in the representation.
      if (auto computeType = dyn_cast<FloatType>(compute))
        value = toAPFloat(value, computeType).convertToDouble();
      return arith::ConstantFloatOp::create(b, loc, floatType, toAPFloat(value, floatType));
    }
    return arith::ConstantIntOp::create(b, loc, repr, static_cast<int64_t>(value));
  }

  /// Saturation: Inf -> +-max, NaN -> 0 (only when the SoC saturates).
  Value saturate(Value value, Type format) {
    if (!context.saturate || !isa<FloatType>(value.getType()))
      return value;
    auto type = cast<FloatType>(value.getType());
    Value inf = arith::ConstantFloatOp::create(b, loc, type, toAPFloat(INFINITY, type));
    Value max = arith::ConstantFloatOp::create(b, loc, type, toAPFloat(largestFinite(format), type));
    Value zero = arith::ConstantFloatOp::create(b, loc, type, toAPFloat(0.0, type));
    Value magnitude = math::AbsFOp::create(b, loc, value);
    Value isInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, magnitude, inf);
    Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, value, zero);
    Value signedMax =
        arith::SelectOp::create(b, loc, negative, arith::NegFOp::create(b, loc, max), max);
    Value clamped = arith::SelectOp::create(b, loc, isInf, signedMax, value);
    Value isNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
    return arith::SelectOp::create(b, loc, isNan, zero, clamped);
  }

  /// One step's result rounded to the compute dtype.
  Value round(Value value) {
    if (!isa<FloatType>(repr))
      return value;
    if (isSixteenBitFloat(compute)) {
      Value narrow = arith::TruncFOp::create(b, loc, compute, value);
      value = arith::ExtFOp::create(b, loc, repr, narrow);
    }
    return saturate(value, compute);
  }

  /// An input element converted into the representation (rounded to the
  /// compute dtype on the way in).
  Value in(Value value, bool isUnsigned) {
    Type type = value.getType();
    if (type == repr)
      return value;
    if (auto floatRepr = dyn_cast<FloatType>(repr)) {
      Value converted;
      if (auto floatType = dyn_cast<FloatType>(type)) {
        converted = floatType.getWidth() < floatRepr.getWidth()
                        ? Value(arith::ExtFOp::create(b, loc, repr, value))
                        : Value(arith::TruncFOp::create(b, loc, repr, value));
      } else if (isUnsigned || type.isInteger(1)) {
        converted = arith::UIToFPOp::create(b, loc, repr, value);
      } else {
        converted = arith::SIToFPOp::create(b, loc, repr, value);
      }
      // Widening into the compute dtype is exact; anything else rounds.
      bool exact = type == compute || (isa<FloatType>(type) && isa<FloatType>(compute) &&
                                       type.getIntOrFloatBitWidth() <
                                           compute.getIntOrFloatBitWidth() &&
                                       !(type.isBF16() && compute.isF16()));
      return exact ? converted : round(converted);
    }
    if (isa<FloatType>(type))
      return arith::FPToSIOp::create(b, loc, repr, value);
    unsigned from = type.getIntOrFloatBitWidth(), to = repr.getIntOrFloatBitWidth();
    if (from < to)
      return (isUnsigned || from == 1) ? Value(arith::ExtUIOp::create(b, loc, repr, value))
                                       : Value(arith::ExtSIOp::create(b, loc, repr, value));
    return arith::TruncIOp::create(b, loc, repr, value);
  }

  /// Computes `kind` on representation values; i1 for predicates.
  FailureOr<Value> computeKind(StringRef kind, ArrayRef<Value> x, ArrayRef<double> params) {
    if (floatCompute())
      return floatKind(kind, x, params);
    return integerKind(kind, x, params);
  }

private:
  static llvm::APFloat toAPFloat(double value, FloatType type) {
    llvm::APFloat result(value);
    bool lost;
    result.convert(type.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &lost);
    return result;
  }

  Value add(Value a, Value c) { return round(arith::AddFOp::create(b, loc, a, c)); }
  Value sub(Value a, Value c) { return round(arith::SubFOp::create(b, loc, a, c)); }
  Value mul(Value a, Value c) { return round(arith::MulFOp::create(b, loc, a, c)); }
  Value div(Value a, Value c) { return round(arith::DivFOp::create(b, loc, a, c)); }
  Value maxf(Value a, Value c) { return arith::MaximumFOp::create(b, loc, a, c); }
  Value minf(Value a, Value c) { return arith::MinimumFOp::create(b, loc, a, c); }
  Value cmp(arith::CmpFPredicate p, Value a, Value c) { return arith::CmpFOp::create(b, loc, p, a, c); }
  Value select(Value c, Value t, Value f) { return arith::SelectOp::create(b, loc, c, t, f); }
  template <typename MathOp> Value fn(Value a) { return round(MathOp::create(b, loc, a)); }

  /// exp and tanh (of the f32 representation: the vector unit computes in
  /// no wider float) are DoubleExp.h's steps, inline (DoubleExpCodegen.cpp).
  Value exp(Value a) { return round(emitExpFloat(b, loc, a)); }
  Value tanh(Value a) { return round(emitTanhFloat(b, loc, a)); }
  FailureOr<Value> floatKind(StringRef kind, ArrayRef<Value> x, ArrayRef<double> params) {
    auto param = [&](size_t i, double fallback) {
      return constant(i < params.size() ? params[i] : fallback);
    };
    Value zero = constant(0.0), one = constant(1.0);
    if (kind == "copy") return x[0];
    if (kind == "abs") return Value(math::AbsFOp::create(b, loc, x[0]));
    if (kind == "neg") return Value(arith::NegFOp::create(b, loc, x[0]));
    if (kind == "relu") return maxf(x[0], zero);
    if (kind == "exp") return exp(x[0]);
    if (kind == "log") return fn<math::LogOp>(x[0]);
    if (kind == "sqrt") return fn<math::SqrtOp>(x[0]);
    if (kind == "rsqrt") return div(one, fn<math::SqrtOp>(x[0]));
    if (kind == "reciprocal") return div(one, x[0]);
    if (kind == "tanh") return tanh(x[0]);
    if (kind == "erf") return fn<math::ErfOp>(x[0]);
    if (kind == "sin") return fn<math::SinOp>(x[0]);
    if (kind == "cos") return fn<math::CosOp>(x[0]);
    if (kind == "tan") return fn<math::TanOp>(x[0]);
    if (kind == "asin") return fn<math::AsinOp>(x[0]);
    if (kind == "acos") return fn<math::AcosOp>(x[0]);
    if (kind == "atan") return fn<math::AtanOp>(x[0]);
    if (kind == "sinh") return fn<math::SinhOp>(x[0]);
    if (kind == "cosh") return fn<math::CoshOp>(x[0]);
    if (kind == "asinh") return fn<math::AsinhOp>(x[0]);
    if (kind == "acosh") return fn<math::AcoshOp>(x[0]);
    if (kind == "atanh") return fn<math::AtanhOp>(x[0]);
    if (kind == "floor") return Value(math::FloorOp::create(b, loc, x[0]));
    if (kind == "ceil") return Value(math::CeilOp::create(b, loc, x[0]));
    if (kind == "round") return Value(math::RoundEvenOp::create(b, loc, x[0]));
    if (kind == "sigmoid") {
      // 1 / (1 + exp(-x)), each step rounded.
      Value e = exp(arith::NegFOp::create(b, loc, x[0]));
      return div(one, add(one, e));
    }
    if (kind == "gelu") {
      // Ascend's Gelu: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
      Value cube = mul(mul(x[0], x[0]), x[0]);
      Value inner = add(x[0], mul(constant(0.044715), cube));
      Value t = tanh(mul(constant(0.7978845608028654), inner));
      return mul(mul(constant(0.5), x[0]), add(one, t));
    }
    if (kind == "leaky_relu")
      return select(cmp(arith::CmpFPredicate::OGE, x[0], zero), x[0], mul(param(0, 0.01), x[0]));
    if (kind == "prelu")
      return select(cmp(arith::CmpFPredicate::OGE, x[0], zero), x[0], mul(x[1], x[0]));
    if (kind == "hard_sigmoid") {
      Value linear = add(mul(param(0, 0.2), x[0]), param(1, 0.5));
      return minf(maxf(linear, zero), one);
    }
    if (kind == "hard_swish") {
      // As TBE's hard_swish: relu6(x + 3) times 1/6 (a rounded constant),
      // then times x.
      Value shifted = minf(maxf(add(x[0], constant(3.0)), zero), constant(6.0));
      return mul(x[0], mul(shifted, constant(1.0 / 6.0)));
    }
    if (kind == "softplus") return fn<math::LogOp>(add(one, exp(x[0])));
    if (kind == "softsign") return div(x[0], add(one, math::AbsFOp::create(b, loc, x[0])));
    if (kind == "elu" || kind == "selu") {
      double alpha = kind == "elu" ? (params.empty() ? 1.0 : params[0]) : 1.6732632423543772;
      Value negative = mul(constant(alpha), sub(exp(x[0]), one));
      Value result = select(cmp(arith::CmpFPredicate::OGT, x[0], zero), x[0], negative);
      return kind == "elu" ? result : mul(constant(1.0507009873554805), result);
    }
    if (kind == "thresholded_relu")
      return select(cmp(arith::CmpFPredicate::OGT, x[0], param(0, 1.0)), x[0], zero);
    if (kind == "sign") {
      Value positive = cmp(arith::CmpFPredicate::OGT, x[0], zero);
      Value negative = cmp(arith::CmpFPredicate::OLT, x[0], zero);
      return select(positive, one, select(negative, constant(-1.0), x[0]));
    }
    if (kind == "not") return cmp(arith::CmpFPredicate::OEQ, x[0], zero);
    if (kind == "is_nan") return cmp(arith::CmpFPredicate::UNO, x[0], x[0]);
    if (kind == "is_inf")
      return cmp(arith::CmpFPredicate::OEQ, math::AbsFOp::create(b, loc, x[0]), constant(INFINITY));
    if (kind == "add") return add(x[0], x[1]);
    if (kind == "sub") return sub(x[0], x[1]);
    if (kind == "mul") return mul(x[0], x[1]);
    if (kind == "div") return div(x[0], x[1]);
    if (kind == "max") return maxf(x[0], x[1]);
    if (kind == "min") return minf(x[0], x[1]);
    if (kind == "pow") return round(math::PowFOp::create(b, loc, x[0], x[1]));
    if (kind == "mod") return round(arith::RemFOp::create(b, loc, x[0], x[1]));
    if (kind == "floor_mod") {
      // x - floor(x / y) * y, as the remainder moved to the divisor's sign.
      Value r = round(arith::RemFOp::create(b, loc, x[0], x[1]));
      Value nonzero = cmp(arith::CmpFPredicate::ONE, r, zero);
      Value signsDiffer = arith::XOrIOp::create(b, loc, cmp(arith::CmpFPredicate::OLT, r, zero),
                                                cmp(arith::CmpFPredicate::OLT, x[1], zero));
      Value adjust = arith::AndIOp::create(b, loc, nonzero, signsDiffer);
      return select(adjust, add(r, x[1]), r);
    }
    if (kind == "and" || kind == "or" || kind == "xor") {
      Value l = cmp(arith::CmpFPredicate::UNE, x[0], zero);
      Value r = cmp(arith::CmpFPredicate::UNE, x[1], zero);
      if (kind == "and") return Value(arith::AndIOp::create(b, loc, l, r));
      if (kind == "or") return Value(arith::OrIOp::create(b, loc, l, r));
      return Value(arith::XOrIOp::create(b, loc, l, r));
    }
    if (kind == "cmp_eq") return cmp(arith::CmpFPredicate::OEQ, x[0], x[1]);
    if (kind == "cmp_ne") return cmp(arith::CmpFPredicate::UNE, x[0], x[1]);
    if (kind == "cmp_lt") return cmp(arith::CmpFPredicate::OLT, x[0], x[1]);
    if (kind == "cmp_gt") return cmp(arith::CmpFPredicate::OGT, x[0], x[1]);
    if (kind == "cmp_le") return cmp(arith::CmpFPredicate::OLE, x[0], x[1]);
    if (kind == "cmp_ge") return cmp(arith::CmpFPredicate::OGE, x[0], x[1]);
    if (kind == "select")
      return select(cmp(arith::CmpFPredicate::UNE, x[0], zero), x[1], x[2]);
    if (kind == "clip") return minf(maxf(x[0], x[1]), x[2]);
    if (kind == "muls") return mul(x[0], param(0, 1.0));
    if (kind == "adds") return add(x[0], param(0, 0.0));
    return failure();
  }

  FailureOr<Value> integerKind(StringRef kind, ArrayRef<Value> x, ArrayRef<double> params) {
    using P = arith::CmpIPredicate;
    bool u = unsignedCompute;
    // Orderings by signedness.
    auto order = [&](P signedPredicate) {
      if (!u)
        return signedPredicate;
      switch (signedPredicate) {
      case P::slt: return P::ult;
      case P::sle: return P::ule;
      case P::sgt: return P::ugt;
      case P::sge: return P::uge;
      default: return signedPredicate;
      }
    };
    auto icmp = [&](P p, Value l, Value r) {
      return Value(arith::CmpIOp::create(b, loc, order(p), l, r));
    };
    Value zero = constant(0);
    if (u) {
      if (kind == "abs" || kind == "relu") return x[0];
      if (kind == "sign") return Value(arith::ExtUIOp::create(b, loc, repr, icmp(P::ne, x[0], zero)));
      if (kind == "max") return Value(arith::MaxUIOp::create(b, loc, x[0], x[1]));
      if (kind == "min") return Value(arith::MinUIOp::create(b, loc, x[0], x[1]));
      if (kind == "clip")
        return Value(arith::MinUIOp::create(b, loc, arith::MaxUIOp::create(b, loc, x[0], x[1]), x[2]));
      if (kind == "div" || kind == "mod" || kind == "floor_mod") {
        Value isZero = icmp(P::eq, x[1], zero);
        Value safe = select(isZero, constant(1), x[1]);
        Value result = kind == "div" ? Value(arith::DivUIOp::create(b, loc, x[0], safe))
                                     : Value(arith::RemUIOp::create(b, loc, x[0], safe));
        return select(isZero, zero, result);
      }
    }
    if (kind == "pow") {
      // Integer powers through f64 (exact below 2^53), truncated as C does.
      auto toFloat = [&](Value v) {
        return u ? Value(arith::UIToFPOp::create(b, loc, b.getF64Type(), v))
                 : Value(arith::SIToFPOp::create(b, loc, b.getF64Type(), v));
      };
      Value power = math::PowFOp::create(b, loc, toFloat(x[0]), toFloat(x[1]));
      return u ? Value(arith::FPToUIOp::create(b, loc, repr, power))
               : Value(arith::FPToSIOp::create(b, loc, repr, power));
    }
    if (kind == "copy") return x[0];
    if (kind == "abs") return Value(math::AbsIOp::create(b, loc, x[0]));
    if (kind == "neg") return Value(arith::SubIOp::create(b, loc, zero, x[0]));
    if (kind == "relu") return Value(arith::MaxSIOp::create(b, loc, x[0], zero));
    if (kind == "sign") {
      Value positive = icmp(P::sgt, x[0], zero), negative = icmp(P::slt, x[0], zero);
      return select(positive, constant(1), select(negative, constant(-1), zero));
    }
    if (kind == "not") return icmp(P::eq, x[0], zero);
    if (kind == "add") return Value(arith::AddIOp::create(b, loc, x[0], x[1]));
    if (kind == "sub") return Value(arith::SubIOp::create(b, loc, x[0], x[1]));
    if (kind == "mul") return Value(arith::MulIOp::create(b, loc, x[0], x[1]));
    if (kind == "max") return Value(arith::MaxSIOp::create(b, loc, x[0], x[1]));
    if (kind == "min") return Value(arith::MinSIOp::create(b, loc, x[0], x[1]));
    if (kind == "div" || kind == "mod" || kind == "floor_mod") {
      // A zero divisor would trap on the host; the device's result for it is
      // not documented, so it reads as 0 here.
      Value isZero = icmp(P::eq, x[1], zero);
      Value safe = select(isZero, constant(1), x[1]);
      Value result;
      if (kind == "div") {
        result = arith::DivSIOp::create(b, loc, x[0], safe);
      } else {
        result = arith::RemSIOp::create(b, loc, x[0], safe);
        if (kind == "floor_mod") {
          Value differ = arith::XOrIOp::create(b, loc, icmp(P::slt, result, zero),
                                               icmp(P::slt, safe, zero));
          Value adjust = arith::AndIOp::create(b, loc, icmp(P::ne, result, zero), differ);
          result = select(adjust, arith::AddIOp::create(b, loc, result, safe), result);
        }
      }
      return select(isZero, zero, result);
    }
    if (kind == "and") return Value(arith::AndIOp::create(b, loc, x[0], x[1]));
    if (kind == "or") return Value(arith::OrIOp::create(b, loc, x[0], x[1]));
    if (kind == "xor") return Value(arith::XOrIOp::create(b, loc, x[0], x[1]));
    if (kind == "cmp_eq") return icmp(P::eq, x[0], x[1]);
    if (kind == "cmp_ne") return icmp(P::ne, x[0], x[1]);
    if (kind == "cmp_lt") return icmp(P::slt, x[0], x[1]);
    if (kind == "cmp_gt") return icmp(P::sgt, x[0], x[1]);
    if (kind == "cmp_le") return icmp(P::sle, x[0], x[1]);
    if (kind == "cmp_ge") return icmp(P::sge, x[0], x[1]);
    if (kind == "select") return select(icmp(P::ne, x[0], zero), x[1], x[2]);
    if (kind == "clip")
      return Value(arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, x[0], x[1]), x[2]));
    if (kind == "muls")
      return Value(arith::MulIOp::create(b, loc, x[0], constant(params.empty() ? 1 : params[0])));
    if (kind == "adds")
      return Value(arith::AddIOp::create(b, loc, x[0], constant(params.empty() ? 0 : params[0])));
    return failure();
  }

  OpBuilder &b;
  Location loc;
  CodegenContext &context;
  Type compute, repr;
  bool unsignedCompute; ///< integer kinds use unsigned division, order, extension
};

/// Converts a computed value to the output element type with `rounding`.
Value toOutput(OpBuilder &b, Location loc, CodegenContext &context, Value value, Type out,
               bool outUnsigned, RoundingMode rounding, bool fromUnsigned = false) {
  Type from = value.getType();
  if (from == out)
    return value;
  auto saturateTo = [&](Value v, Type format) {
    Emitter emitter(b, loc, context, format);
    return emitter.saturate(v, format);
  };
  if (from.isInteger(1)) {
    if (isa<FloatType>(out))
      return arith::UIToFPOp::create(b, loc, out, value);
    return arith::ExtUIOp::create(b, loc, out, value);
  }
  if (auto fromFloat = dyn_cast<FloatType>(from)) {
    if (auto outFloat = dyn_cast<FloatType>(out)) {
      if (outFloat.getWidth() > fromFloat.getWidth() ||
          (outFloat.getWidth() == fromFloat.getWidth() && !isSixteenBitFloat(out)))
        return arith::ExtFOp::create(b, loc, out, value);
      Value rounded;
      if (rounding == RoundingMode::Rint && fromFloat.isF32()) {
        rounded = arith::TruncFOp::create(b, loc, out, value);
        if (context.saturate) {
          // Saturate in f32, then narrow again (exact).
          Value wide = arith::ExtFOp::create(b, loc, from, rounded);
          rounded = arith::TruncFOp::create(b, loc, out, saturateTo(wide, out));
        }
        return rounded;
      }
      // Another mode, or from f64: the runtime rounds exactly once.
      Value wide = fromFloat.isF64() ? value : Value(arith::ExtFOp::create(b, loc, b.getF64Type(), value));
      auto callee = context.runtimeFunction(
          "ascendprec_rt_round_float", {b.getF64Type(), b.getI32Type(), b.getI32Type(), b.getI32Type()},
          {b.getF32Type()});
      auto i32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v); };
      Value exact = func::CallOp::create(b, loc, callee,
                                         ValueRange{wide, i32(elementCodeOf(out)),
                                                    i32(static_cast<int32_t>(rounding)),
                                                    i32(context.overflowCode())})
                        .getResult(0);
      return out.isF32() ? exact : Value(arith::TruncFOp::create(b, loc, out, exact));
    }
    auto outInt = cast<IntegerType>(out);
    if (outInt.getWidth() == 1)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   arith::ConstantFloatOp::create(b, loc, fromFloat,
                                                                  llvm::APFloat::getZero(fromFloat.getFloatSemantics())));
    Value wide = fromFloat.isF64() ? value : Value(arith::ExtFOp::create(b, loc, b.getF64Type(), value));
    auto callee = context.runtimeFunction(
        "ascendprec_rt_round_int", {b.getF64Type(), b.getI32Type(), b.getI32Type(), b.getI32Type()},
        {b.getI64Type()});
    auto i32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v); };
    Value result = func::CallOp::create(b, loc, callee,
                                        ValueRange{wide, i32(outInt.getWidth()), i32(!outUnsigned),
                                                   i32(static_cast<int32_t>(rounding))})
                       .getResult(0);
    return outInt.getWidth() == 64 ? result : Value(arith::TruncIOp::create(b, loc, out, result));
  }
  // Integer to float or integer.
  if (auto outFloat = dyn_cast<FloatType>(out)) {
    auto convert = [&](Type to) {
      return fromUnsigned ? Value(arith::UIToFPOp::create(b, loc, to, value))
                          : Value(arith::SIToFPOp::create(b, loc, to, value));
    };
    if (outFloat.isF32() || outFloat.isF64())
      return convert(out);
    return toOutput(b, loc, context, convert(b.getF64Type()), out, outUnsigned, rounding);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth(), toWidth = out.getIntOrFloatBitWidth();
  if (toWidth == 1)
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                 arith::ConstantIntOp::create(b, loc, from, 0));
  if (toWidth > fromWidth)
    return fromUnsigned ? Value(arith::ExtUIOp::create(b, loc, out, value))
                        : Value(arith::ExtSIOp::create(b, loc, out, value));
  return arith::TruncIOp::create(b, loc, out, value);
}

/// `buffer` seen as one dimension (UB buffers are contiguous). A 1-D buffer
/// is used as it is: it may be a view of GM at an offset
/// (TileCopyElision.cpp), which a cast from the base pointer would lose.
Value flatten(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() == 1)
    return buffer;
  int64_t count = type.getNumElements();
  auto flat = MemRefType::get({count}, type.getElementType(),
                              StridedLayoutAttr::get(b.getContext(), 0, {1}));
  return memref::ReinterpretCastOp::create(b, loc, flat, buffer, 0, ArrayRef<int64_t>{count},
                                           ArrayRef<int64_t>{1});
}

/// What forEachElement hands its body: the builder inside the innermost
/// loop, each input's buffer and indices (or its element, already loaded
/// where a loop of it is invariant), the output and its indices.
struct ElementSite {
  OpBuilder &builder;
  ArrayRef<Value> buffers;
  ArrayRef<SmallVector<Value>> indices;
  /// Per input: its element loaded in an outer loop, or null.
  ArrayRef<Value> hoisted;
  Value output;
  SmallVector<Value> outIndex;

  Value load(Location loc, size_t input) const {
    if (hoisted[input])
      return hoisted[input];
    return memref::LoadOp::create(builder, loc, buffers[input], indices[input]);
  }
};

/// Emits `body` over the output's elements: one flat loop when every input
/// is the output's size or a scalar, else one loop per output dimension
/// with broadcast inputs indexed at 0 along their dimensions of 1. A
/// broadcast input's element is loaded in the innermost loop whose index
/// it uses, not in the loops inside it, and a scalar one (a Clip's bounds,
/// an Add's constant) before every loop: LLVM cannot tell a load inside the
/// loop from the loop's own stores (UB buffers are views of one scratch
/// region, GM buffers any pointers), and such a loop stays scalar (a
/// softmax's `x - max` over a row did).
void forEachElement(OpBuilder &b, Location loc, ArrayRef<Value> inputs, Value output,
                    function_ref<void(const ElementSite &)> body) {
  auto outType = cast<MemRefType>(output.getType());
  int64_t count = outType.getNumElements();
  bool flat = llvm::all_of(inputs, [&](Value input) {
    int64_t n = cast<MemRefType>(input.getType()).getNumElements();
    return n == count || n == 1;
  });
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> hoisted(inputs.size());
  for (auto [i, input] : llvm::enumerate(inputs)) {
    auto type = cast<MemRefType>(input.getType());
    if (type.getNumElements() == 1 && count != 1)
      hoisted[i] = memref::LoadOp::create(b, loc, input, SmallVector<Value>(type.getRank(), zero));
  }
  if (flat) {
    SmallVector<Value> flatInputs;
    for (Value input : inputs)
      flatInputs.push_back(flatten(b, loc, input));
    Value flatOutput = flatten(b, loc, output);
    auto loop = scf::ForOp::create(b, loc, zero, arith::ConstantIndexOp::create(b, loc, count), one);
    OpBuilder inner = OpBuilder::atBlockTerminator(loop.getBody());
    Value i = loop.getInductionVar();
    SmallVector<SmallVector<Value>> indices;
    for (Value input : inputs)
      indices.push_back({cast<MemRefType>(input.getType()).getNumElements() == 1 && count != 1
                             ? zero
                             : i});
    body({inner, flatInputs, indices, hoisted, flatOutput, {i}});
    return;
  }
  OpBuilder inner = b;
  SmallVector<Value> ivs;
  SmallVector<scf::ForOp> loops;
  for (int64_t dim : outType.getShape()) {
    auto loop = scf::ForOp::create(inner, loc, zero, arith::ConstantIndexOp::create(inner, loc, dim), one);
    inner = OpBuilder::atBlockTerminator(loop.getBody());
    ivs.push_back(loop.getInductionVar());
    loops.push_back(loop);
  }
  SmallVector<SmallVector<Value>> indices;
  for (auto [i, input] : llvm::enumerate(inputs)) {
    auto type = cast<MemRefType>(input.getType());
    int64_t offset = outType.getRank() - type.getRank();
    SmallVector<Value> index;
    int64_t deepest = -1; // the innermost output dimension the index uses
    for (int64_t d = 0; d < type.getRank(); ++d) {
      bool broadcast = type.getDimSize(d) == 1;
      index.push_back(broadcast ? zero : ivs[offset + d]);
      if (!broadcast)
        deepest = offset + d;
    }
    if (!hoisted[i] && deepest >= 0 && deepest + 1 < outType.getRank()) {
      OpBuilder at = OpBuilder::atBlockBegin(loops[deepest].getBody());
      hoisted[i] = memref::LoadOp::create(at, loc, input, index);
    }
    indices.push_back(index);
  }
  body({inner, SmallVector<Value>(inputs), indices, hoisted, output, ivs});
}

} // namespace

LogicalResult codegen::lowerVectorOp(VectorOp op, CodegenContext &context) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type compute = context.effective(op.getCompute());
  bool unsignedCompute = op.getCompute().isUnsignedInteger();
  SmallVector<Value> inputs(op.getInputs());
  SmallVector<bool> unsignedInputs;
  for (Value input : inputs)
    unsignedInputs.push_back(context.originalElementOf(input).isUnsignedInteger());
  Type outElement = getElementTypeOrSelf(op.getOutput().getType());
  bool outUnsigned = context.originalElementOf(op.getOutput()).isUnsignedInteger();
  SmallVector<double> params;
  if (auto attr = op.getParams())
    params.assign(attr->begin(), attr->end());
  LogicalResult result = success();
  StringRef kind = op.getKind();
  forEachElement(b, loc, inputs, op.getOutput(), [&](const ElementSite &site) {
    Emitter emitter(site.builder, loc, context, compute, unsignedCompute);
    SmallVector<Value> values;
    for (size_t i = 0; i < inputs.size(); ++i) {
      Value element = site.load(loc, i);
      values.push_back(emitter.in(element, unsignedInputs[i]));
    }
    FailureOr<Value> computed = emitter.computeKind(kind, values, params);
    if (failed(computed)) {
      result = op.emitOpError("has no host code for '") << kind << "' computing in " << compute;
      return;
    }
    Value stored = toOutput(site.builder, loc, context, *computed, outElement, outUnsigned,
                            op.getRound(), unsignedCompute);
    memref::StoreOp::create(site.builder, loc, stored, site.output, site.outIndex);
  });
  return result;
}

LogicalResult codegen::lowerCastOp(CastOp op, CodegenContext &context) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type outElement = getElementTypeOrSelf(op.getOutput().getType());
  bool outUnsigned = context.originalElementOf(op.getOutput()).isUnsignedInteger();
  bool inUnsigned = context.originalElementOf(op.getInput()).isUnsignedInteger();
  Type originalOut = context.originalElementOf(op.getOutput());
  bool roundsInReference = context.reference && op.getModelRounding() &&
                           (originalOut.isF16() || originalOut.isBF16()) &&
                           outElement.isF32();
  forEachElement(b, loc, {op.getInput()}, op.getOutput(), [&](const ElementSite &site) {
                   OpBuilder &inner = site.builder;
                   Value element = site.load(loc, 0);
                   if (inUnsigned && isa<FloatType>(outElement)) {
                     Value wide = arith::UIToFPOp::create(inner, loc, inner.getF64Type(), element);
                     element = wide;
                   }
                   Value stored;
                   if (roundsInReference) {
                     // The model's own Cast to fp16/bf16: the reference rounds
                     // there too, then carries the value in f32.
                     stored = toOutput(inner, loc, context, element, originalOut, outUnsigned,
                                       op.getRound(), inUnsigned);
                     stored = arith::ExtFOp::create(inner, loc, outElement, stored);
                   } else {
                     stored = toOutput(inner, loc, context, element, outElement, outUnsigned,
                                       op.getRound(), inUnsigned);
                   }
                   memref::StoreOp::create(inner, loc, stored, site.output, site.outIndex);
                 });
  return success();
}
