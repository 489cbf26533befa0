//===- AscendAttrs.cpp - `#ascend.precision` and friends ------------------===//

#include "AscendPrec/Dialect/Ascend/IR/AscendDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::ascend;

#define GET_ATTRDEF_CLASSES
#include "AscendPrec/Dialect/Ascend/IR/AscendAttrs.cpp.inc"

void AscendDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "AscendPrec/Dialect/Ascend/IR/AscendAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// PrecisionAttr
//===----------------------------------------------------------------------===//

// Syntax:
//   #ascend.precision<origin = T, compute = T, inputs = [T, ...],
//                     outputs = [T, ...], engine = E, list = L,
//                     rule = "ID", source = "...">
// Keys are fixed and ordered, so a typo gets "expected 'compute'" at its
// column rather than a silently ignored field.

static ParseResult parseKey(AsmParser &parser, StringRef key) {
  return failure(parser.parseKeyword(key) || parser.parseEqual());
}

static ParseResult parseTypeList(AsmParser &parser,
                                 SmallVectorImpl<Type> &types) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
    Type type;
    if (parser.parseType(type))
      return failure();
    types.push_back(type);
    return success();
  });
}

template <typename EnumT>
static ParseResult
parseEnumKeyword(AsmParser &parser, StringRef what, StringRef choices,
                 std::optional<EnumT> (*symbolize)(StringRef), EnumT &out) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<EnumT> value = symbolize(keyword);
  if (!value)
    return parser.emitError(loc) << "unknown " << what << " '" << keyword
                                 << "'; expected one of: " << choices;
  out = *value;
  return success();
}

Attribute PrecisionAttr::parse(AsmParser &parser, Type) {
  Type origin, compute;
  SmallVector<Type> inputs, outputs;
  Engine engine;
  ListColor list;
  std::string rule, source;
  if (parser.parseLess() || parseKey(parser, "origin") ||
      parser.parseType(origin) || parser.parseComma() ||
      parseKey(parser, "compute") || parser.parseType(compute) ||
      parser.parseComma() || parseKey(parser, "inputs") ||
      parseTypeList(parser, inputs) || parser.parseComma() ||
      parseKey(parser, "outputs") || parseTypeList(parser, outputs) ||
      parser.parseComma() || parseKey(parser, "engine") ||
      parseEnumKeyword<Engine>(parser, "engine",
                               "aicore_cube, aicore_vector, aicpu",
                               symbolizeEngine, engine) ||
      parser.parseComma() || parseKey(parser, "list") ||
      parseEnumKeyword<ListColor>(parser, "list colour",
                                  "none, white, black, gray",
                                  symbolizeListColor, list) ||
      parser.parseComma() || parseKey(parser, "rule") ||
      parser.parseString(&rule) || parser.parseComma() ||
      parseKey(parser, "source") || parser.parseString(&source) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<PrecisionAttr>(parser.getContext(), origin, compute,
                                          inputs, outputs, engine, list, rule,
                                          source);
}

static void printTypeList(AsmPrinter &printer, ArrayRef<Type> types) {
  printer << '[';
  llvm::interleaveComma(types, printer);
  printer << ']';
}

void PrecisionAttr::print(AsmPrinter &printer) const {
  printer << "<origin = " << getOrigin() << ", compute = " << getCompute()
          << ", inputs = ";
  printTypeList(printer, getInputs());
  printer << ", outputs = ";
  printTypeList(printer, getOutputs());
  printer << ", engine = " << stringifyEngine(getEngine())
          << ", list = " << stringifyListColor(getList()) << ", rule = ";
  printer.printString(getRule());
  printer << ", source = ";
  printer.printString(getSource());
  printer << '>';
}

/// Rule IDs look like `ML-4` or `PM-10`: upper-case letters, '-', digits.
static bool isRuleId(StringRef rule) {
  auto [prefix, number] = rule.split('-');
  return !prefix.empty() && !number.empty() &&
         llvm::all_of(prefix, [](char c) { return c >= 'A' && c <= 'Z'; }) &&
         llvm::all_of(number, [](char c) { return llvm::isDigit(c); });
}

LogicalResult
PrecisionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      Type origin, Type compute, ArrayRef<Type> inputs,
                      ArrayRef<Type> outputs, Engine, ListColor,
                      StringRef rule, StringRef source) {
  auto isElementType = [](Type type) { return !isa<ShapedType>(type); };
  if (!isElementType(origin) || !isElementType(compute) ||
      !llvm::all_of(inputs, isElementType) ||
      !llvm::all_of(outputs, isElementType))
    return emitError() << "precision dtypes must be element types such as "
                          "f16 or f32, not tensor types";
  if (!isRuleId(rule))
    return emitError() << "precision rule '" << rule
                       << "' is not a rule ID such as \"ML-2\"";
  if (source.empty())
    return emitError() << "precision source must name \"built-in\" or the "
                          "file:line of the deciding entry";
  return success();
}
