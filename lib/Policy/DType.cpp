//===- DType.cpp - CANN data type names -----------------------------------===//

#include "AscendPrec/Policy/DType.h"

#include <utility>

namespace ascendprec::policy {

namespace {
struct NamedDType {
  const char *name;
  DType dtype;
};

// CD-2's list; "float" is CANN's other name for float32.
constexpr NamedDType kConfigNames[] = {
    {"float16", DType::Float16}, {"float32", DType::Float32},
    {"float", DType::Float32},   {"bfloat16", DType::BFloat16},
    {"int8", DType::Int8},       {"uint8", DType::UInt8},
    {"int16", DType::Int16},     {"int32", DType::Int32},
    {"int64", DType::Int64},     {"bool", DType::Bool},
    {"double", DType::Double},   {"hifloat8", DType::HiFloat8},
};

// Operator-library files also use these.
constexpr NamedDType kLibraryOnlyNames[] = {
    {"uint16", DType::UInt16},        {"uint32", DType::UInt32},
    {"uint64", DType::UInt64},        {"complex64", DType::Complex64},
    {"complex128", DType::Complex128}, {"float64", DType::Double},
};
} // namespace

std::optional<DType> parseConfigDType(std::string_view name) {
  for (const NamedDType &entry : kConfigNames)
    if (name == entry.name)
      return entry.dtype;
  return std::nullopt;
}

std::optional<DType> parseLibraryDType(std::string_view name) {
  // AI CPU files spell types DT_FLOAT16, DT_FLOAT, DT_INT32, ...
  std::string lowered;
  if (name.substr(0, 3) == "DT_") {
    for (char c : name.substr(3))
      lowered += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (lowered == "bf16")
      lowered = "bfloat16";
    name = lowered;
  }
  if (auto dtype = parseConfigDType(name))
    return dtype;
  for (const NamedDType &entry : kLibraryOnlyNames)
    if (name == entry.name)
      return entry.dtype;
  return std::nullopt;
}

const std::vector<std::string> &configDTypeNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const NamedDType &entry : kConfigNames)
      list.push_back(entry.name);
    return list;
  }();
  return names;
}

std::string dtypeName(DType dtype) {
  switch (dtype) {
  case DType::Float16:
    return "float16";
  case DType::Float32:
    return "float32";
  case DType::BFloat16:
    return "bfloat16";
  case DType::HiFloat8:
    return "hifloat8";
  case DType::Double:
    return "double";
  case DType::Int8:
    return "int8";
  case DType::UInt8:
    return "uint8";
  case DType::Int16:
    return "int16";
  case DType::UInt16:
    return "uint16";
  case DType::Int32:
    return "int32";
  case DType::UInt32:
    return "uint32";
  case DType::Int64:
    return "int64";
  case DType::UInt64:
    return "uint64";
  case DType::Bool:
    return "bool";
  case DType::Complex64:
    return "complex64";
  case DType::Complex128:
    return "complex128";
  }
  return "unknown";
}

bool isFloat(DType dtype) {
  return dtype == DType::Float16 || dtype == DType::Float32 ||
         dtype == DType::BFloat16 || dtype == DType::HiFloat8 ||
         dtype == DType::Double;
}

} // namespace ascendprec::policy
