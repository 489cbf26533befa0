//===- DType.h - CANN data type names -------------------------------------===//

#ifndef ASCENDPREC_POLICY_DTYPE_H
#define ASCENDPREC_POLICY_DTYPE_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ascendprec::policy {

/// The data types CANN config files name (CD-2), plus complex and uint types
/// that operator-library files list.
enum class DType {
  Float16,
  Float32,
  BFloat16,
  HiFloat8,
  Double,
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  Bool,
  Complex64,
  Complex128,
};

/// CD-2: the names customize_dtypes accepts: float16, float32 (and float),
/// bfloat16, int8, uint8, int16, int32, int64, bool, double, hifloat8.
std::optional<DType> parseConfigDType(std::string_view name);
/// Names in ops-info JSON (`float16`, `float`, `int32`, `bfloat16`, ...) and
/// AI CPU info (`DT_FLOAT16`, ...): a superset of the config names.
std::optional<DType> parseLibraryDType(std::string_view name);
/// The names CD-2 lists, for messages.
const std::vector<std::string> &configDTypeNames();

/// The CANN spelling used in reports: float16, float32, bfloat16, ...
std::string dtypeName(DType dtype);
bool isFloat(DType dtype);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_DTYPE_H
