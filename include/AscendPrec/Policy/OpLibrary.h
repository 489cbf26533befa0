//===- OpLibrary.h - the operator library for one SoC (OP-4) --------------===//
//
// Read from CANN's own formats: ops-info JSON (AI Core: `inputN`/`outputN`
// with `dtype` lists, `precision_reduce`, `op.pattern`; AI CPU: `type` lists
// and an `opInfo` naming the AI CPU engine), impl-mode `.ini` lists and the
// platform-config `.ini`.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_POLICY_OPLIBRARY_H
#define ASCENDPREC_POLICY_OPLIBRARY_H

#include "AscendPrec/Policy/ConfigFiles.h"
#include "AscendPrec/Policy/DType.h"
#include "AscendPrec/Policy/Diagnostics.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ascendprec::policy {

/// One dtype combination a kernel accepts: one dtype per input and output.
struct KernelRow {
  std::vector<DType> inputs;
  std::vector<DType> outputs;
  bool operator==(const KernelRow &other) const {
    return inputs == other.inputs && outputs == other.outputs;
  }
  /// "(float16, float16) -> (float16)"
  std::string str() const;
};

struct KernelParam {
  std::string name;
  std::string paramType; ///< required, optional or dynamic
};

struct KernelInfo {
  std::vector<KernelParam> inputs;
  std::vector<KernelParam> outputs;
  std::vector<KernelRow> rows;
  SourceLoc loc;
};

struct OpInfo {
  std::string opType;
  std::optional<KernelInfo> aicore;
  std::optional<KernelInfo> aicpu;
  /// ML-1: true = white, false = black, absent = gray.
  std::optional<bool> precisionReduce;
  SourceLoc precisionReduceLoc;
  std::string pattern; ///< op.pattern, e.g. "formatAgnostic"

  ListColor builtinColor() const;
};

/// Facts from CANN's platform-config `.ini`.
struct PlatformInfo {
  std::string path;
  std::string socVersion;
  std::string shortSocVersion;
  uint64_t aiCoreCount = 0, cubeCoreCount = 0, vectorCoreCount = 0,
           aiCpuCount = 0;
  uint64_t cubeM = 0, cubeN = 0, cubeK = 0;
  uint64_t cubeFreqMHz = 0;
  uint64_t l0aSize = 0, l0bSize = 0, l0cSize = 0, l1Size = 0, ubSize = 0;
  uint64_t l2Size = 0, memorySize = 0;
  uint64_t ddrRate = 0, l2Rate = 0; ///< bytes per cycle, per core
  /// [AICoreMemoryRates] of CANN's files, bytes per cycle per core: GM
  /// writes, L1 -> L0A/L0B (the cube's feed, MTE1), UB -> GM (MTE3). 0 when
  /// a file has none (the model then uses ddr_rate / l2_rate).
  uint64_t ddrWriteRate = 0, l1ToL0aRate = 0, l1ToL0bRate = 0, ubToDdrRate = 0;
};

/// The library one compilation uses: AI Core/AI CPU kernels per op type,
/// impl-mode lists and platform facts.
struct OpLibrary {
  std::string dir;
  std::map<std::string, OpInfo> ops;
  std::optional<PlatformInfo> platform;
  /// IM-2's lists by file stem: high_precision, high_performance,
  /// high_precision_for_all, high_performance_for_all, all_ops_impl_mode.
  std::map<std::string, ImplModeListFile> implModeLists;
  std::vector<std::string> files; ///< every file loaded, in load order

  const OpInfo *find(const std::string &opType) const;
};

/// Loads every `.json` in `dir` (OP-4), `impl_mode/*.ini` and the platform
/// config where present: `platform_config/<platformName>.ini` when the
/// folder holds several (as a CANN installation's does, one per SoC), the
/// one file when it holds one. Returns nothing on any error.
std::optional<OpLibrary> loadOpLibrary(const std::string &dir,
                                       DiagnosticList &diags,
                                       const std::string &platformName = "");

/// Adds the op types of one ops-info JSON document to `library`.
bool parseOpsInfoJson(std::string_view text, const std::string &file,
                      OpLibrary &library, DiagnosticList &diags);

std::optional<PlatformInfo> parsePlatformConfig(std::string_view text,
                                                const std::string &file,
                                                DiagnosticList &diags);

} // namespace ascendprec::policy

#endif // ASCENDPREC_POLICY_OPLIBRARY_H
