//===- DTypeRequests.cpp - which dtypes the rules allow an op -------------===//

#include "AscendPrec/Policy/DTypeRequests.h"

namespace ascendprec::policy {

namespace {

bool fitsSignature(const std::vector<DType> &row, size_t count) {
  // A single entry stands for a dynamic (variadic) parameter.
  return row.size() >= count || row.size() == 1;
}

/// Whether `row` can run the op under `request`; `score` counts float
/// positions that take the request's dtype (uniform rows are preferred).
bool rowFits(const KernelRow &row, const OpShape &shape, const Request &request, int &score) {
  size_t numInputs = shape.query.inputDTypes.size();
  size_t numOutputs = shape.query.outputDTypes.size();
  if ((numInputs && (row.inputs.empty() || !fitsSignature(row.inputs, numInputs))) ||
      row.outputs.empty() || !fitsSignature(row.outputs, numOutputs))
    return false;
  score = 0;
  for (size_t i = 0; i < numInputs; ++i) {
    DType dtype = rowDType(row.inputs, i);
    if (!shape.floatInputs[i]) {
      if (dtype != shape.query.inputDTypes[i])
        return false;
      continue;
    }
    if (static_cast<int>(i) == shape.primaryInput && dtype != request.in)
      return false;
    score += dtype == request.in;
  }
  DType wanted = request.out ? *request.out : request.in;
  for (size_t j = 0; j < numOutputs; ++j) {
    DType dtype = rowDType(row.outputs, j);
    if (!shape.floatOutputs[j]) {
      if (dtype != shape.query.outputDTypes[j])
        return false;
      continue;
    }
    if (static_cast<int>(j) == shape.primaryOutput &&
        (request.out || shape.primaryInput < 0) && dtype != wanted)
      return false;
    score += dtype == wanted;
  }
  return true;
}

/// Builds one rule's requests: the origin `O` and the mode's low dtype `L`
/// are the dtypes most rules speak of.
class RequestBuilder {
public:
  RequestBuilder(const Policy &policy, const OpShape &shape, const OpSituation &situation,
                 DiagnosticList &diags)
      : policy(policy), shape(shape), situation(situation), diags(diags), O(shape.origin),
        L(lowDType(policy.mode)), originName(dtypeName(O)) {}

  RequestPlan build() {
    if (situation.pin.pinned && policy.customizeActive)
      pinned();
    else if (situation.keep.keep)
      keptDType();
    else
      byMode();
    return std::move(plan);
  }

private:
  void add(DType in, Unit unit = Unit::AICore, std::optional<DType> out = std::nullopt) {
    plan.requests.push_back({in, out, unit});
  }
  void fail(const std::string &rule, const std::string &message) {
    plan.failureRule = rule;
    plan.failure = message;
  }
  /// The origin dtype on the AI Core, else on AI CPU.
  void keepOrigin() {
    add(O);
    add(O, Unit::AICPU);
  }
  /// PM-8: the origin where supported, else the low dtype.
  void originElseLow() {
    add(O);
    add(L);
    add(O, Unit::AICPU);
  }

  /// CD-4: within the pinned rows the mode's preference still orders the
  /// choice; CD-5 when none fits.
  void pinned() {
    plan.why = situation.pin.why;
    add(O);
    add(L);
    add(DType::Float32);
    if (shape.primaryInput >= 0) {
      for (const KernelRow &row : situation.rows->aicore)
        add(rowDType(row.inputs, shape.primaryInput));
      for (const KernelRow &row : situation.rows->aicpu)
        add(rowDType(row.inputs, shape.primaryInput), Unit::AICPU);
    }
    fail("CD-5", "has no kernel row that fits the customize_dtypes pin");
  }

  /// KD-2: the origin dtype; if unsupported, the supported higher precision.
  void keptDType() {
    plan.why = situation.keep.why;
    add(O);
    if (O == DType::Float16 || O == DType::BFloat16)
      add(DType::Float32);
    add(O, Unit::AICPU);
    fail("KD-2", "is in keep_dtype but has no kernel for " + originName +
                     " or a higher precision");
  }

  /// PM-6: float32, else (not for black ops) float16.
  void forceFp32() {
    plan.why = {"PM-6", {}, "force_fp32"};
    add(DType::Float32);
    if (situation.list.color == ListColor::Black) {
      add(DType::Float32, Unit::AICPU);
      fail("PM-6", "has no fp32 kernel, is in the black list (precision_reduce "
                   "false) and has no AI CPU fp32 kernel");
    } else {
      add(DType::Float16);
      fail("PM-6", "has neither an fp32 nor an fp16 kernel");
    }
  }

  void byMode() {
    switch (policy.mode) {
    case PrecisionMode::ForceFp16:
      plan.why = {"PM-5", {}, "force_fp16"};
      add(DType::Float16);
      keepOrigin();
      fail("PM-5", "has neither an fp16 nor a " + originName + " kernel");
      return;
    case PrecisionMode::ForceFp32:
      return forceFp32();
    case PrecisionMode::CubeFp16InFp32Out:
      if (!situation.cube) {
        forceFp32();
        plan.why.rule = "PM-7";
        plan.why.why = "cube_fp16in_fp32out: vector ops as force_fp32";
        return;
      }
      plan.why = {"PM-7", {}, "cube_fp16in_fp32out"};
      add(DType::Float16, Unit::AICore, DType::Float32);
      add(DType::Float32, Unit::AICore, DType::Float32);
      add(DType::Float16, Unit::AICore, DType::Float16);
      fail("PM-7", "has no fp16-in/fp32-out, fp32 or fp16 cube kernel");
      return;
    case PrecisionMode::AllowFp32ToFp16:
    case PrecisionMode::AllowFp32ToBf16:
      plan.why = {"PM-8", {}, precisionModeName(policy.mode)};
      originElseLow();
      fail("PM-8", "has no kernel for " + originName + " or " + dtypeName(L));
      return;
    case PrecisionMode::MustKeepOrigin:
      plan.why = {"PM-9", {}, "must_keep_origin_dtype"};
      add(O);
      if (O == DType::Float16)
        add(DType::Float32);
      add(O, Unit::AICPU);
      fail("PM-9", "cannot keep its origin dtype " + originName +
                       " (no AI Core or AI CPU kernel has it), so "
                       "must_keep_origin_dtype cannot be used");
      return;
    case PrecisionMode::CubeHiFloat8:
      plan.why = {"PM-11", {}, "cube_hif8"};
      if (situation.cube)
        add(DType::HiFloat8);
      keepOrigin();
      fail("PM-11", "has no kernel for its origin dtype " + originName);
      return;
    case PrecisionMode::MixedFloat16:
    case PrecisionMode::MixedBFloat16:
    case PrecisionMode::MixedHiFloat8:
      return byListColor();
    }
  }

  /// ML-2 (white), ML-3 (black), ML-4 (gray), with ML-6 edits.
  void byListColor() {
    const ListAnswer &list = situation.list;
    std::string where = list.why.sourceText() == "built-in" ? "built-in, " + policy.soc.family
                                                             : list.why.sourceText();
    std::string colorText = listColorName(list.color) + " list (" + where + ")";
    bool edited = list.why.rule == "ML-6";
    if (list.color == ListColor::White) {
      plan.why = {edited ? "ML-6" : "ML-2", list.why.source, colorText};
      bool reducible = O == DType::Float32 || (O == DType::BFloat16 && L == DType::Float16);
      if (reducible)
        add(L);
      keepOrigin();
      if (reducible && !pickRow(situation.rows->aicore, shape, {L, std::nullopt, Unit::AICore}))
        diags.warning({}, shape.query.nodeName + " (" + shape.query.opType +
                              ") is in the white list but doesn't support " +
                              dtypeName(L) + "; it stays " + originName,
                      "ML-2");
      fail("ML-2", "has no kernel for " + dtypeName(L) + " or " + originName);
    } else if (list.color == ListColor::Black) {
      plan.why = {edited ? "ML-6" : "ML-3", list.why.source, colorText};
      keepOrigin();
      fail("ML-3", "is in the black list but doesn't support its original dtype " +
                       originName + " on the AI Core or AI CPU");
    } else {
      if (situation.followed) {
        plan.why = {"ML-4", list.why.source, "gray: follows " + situation.followedText};
        add(*situation.followed);
      } else {
        plan.why = {"ML-4", list.why.source,
                    "gray with no non-constant producer: keeps " + originName +
                        " where supported (PM-8)"};
      }
      originElseLow();
      fail("ML-4", "has no kernel for the dtype it follows, " + originName + " or " +
                       dtypeName(L));
    }
  }

  const Policy &policy;
  const OpShape &shape;
  const OpSituation &situation;
  DiagnosticList &diags;
  const DType O, L;
  const std::string originName;
  RequestPlan plan;
};

} // namespace

DType rowDType(const std::vector<DType> &row, size_t index) {
  return index < row.size() ? row[index] : row.front();
}

const KernelRow *pickRow(const std::vector<KernelRow> &rows, const OpShape &shape,
                         const Request &request) {
  const KernelRow *best = nullptr;
  int bestScore = -1;
  for (const KernelRow &row : rows) {
    int score;
    if (rowFits(row, shape, request, score) && score > bestScore) {
      best = &row;
      bestScore = score;
    }
  }
  return best;
}

RequestPlan planRequests(const Policy &policy, const OpShape &shape,
                         const OpSituation &situation, DiagnosticList &diags) {
  return RequestBuilder(policy, shape, situation, diags).build();
}

std::optional<RowChoice> chooseRow(const RequestPlan &plan, const KernelRowsAnswer &rows,
                                   const OpShape &shape) {
  for (const Request &request : plan.requests) {
    const auto &candidates = request.unit == Unit::AICore ? rows.aicore : rows.aicpu;
    if (const KernelRow *row = pickRow(candidates, shape, request))
      return RowChoice{row, request.unit, request.in};
  }
  return std::nullopt;
}

std::string rowsText(const KernelRowsAnswer &rows) {
  std::string text;
  for (const KernelRow &row : rows.aicore)
    text += "\n  AI Core " + row.str();
  for (const KernelRow &row : rows.aicpu)
    text += "\n  AI CPU  " + row.str();
  return text.empty() ? " (none)" : text;
}

} // namespace ascendprec::policy
