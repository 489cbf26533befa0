//===- onnx-sweep.cpp - import and plan the ONNX backend test models ------===//
//
// For every model under the given directories (libonnx-testdata's
// pytorch-converted, pytorch-operator and the float node tests), imports it
// and plans it under every precision_mode value. Prints how many imported
// fully, how many used ascend.generic, which op types were unmapped, and the
// planning outcomes. Fails on an import error, a verifier failure or a
// planning failure that no rule explains (a crash fails the test anyway).
//
// Usage: onnx-sweep [--list-generic] SOC DIR...
//   --list-generic  also prints, per model with ascend.generic ops, the
//                   importer's warning saying which node and why.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Conversion/Passes.h"
#include "AscendPrec/InitAll.h"
#include "AscendPrec/Target/ONNX/ImportONNX.h"
#include "AscendPrec/Dialect/Ascend/Transforms/Passes.h"
#include "AscendPrec/Dialect/Ascend/Transforms/RuleDiagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <onnx/onnx_pb.h>

#include <iterator>
#include <map>
#include <set>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

namespace fs = std::filesystem;
using namespace mlir;
using namespace ascendprec;

static const char *kModes[] = {
    "force_fp16",         "force_fp32",         "cube_fp16in_fp32out",
    "allow_mix_precision", "allow_fp32_to_fp16", "must_keep_origin_dtype",
    "allow_mix_precision_fp16", "allow_mix_precision_bf16", "allow_fp32_to_bf16"};

/// Node tests count as float tests when every graph input is a float tensor.
static bool hasOnlyFloatInputs(const std::string &bytes) {
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes))
    return true; // let the importer report it
  for (const auto &input : model.graph().input()) {
    int type = input.type().tensor_type().elem_type();
    if (type != onnx::TensorProto_DataType_FLOAT &&
        type != onnx::TensorProto_DataType_FLOAT16 &&
        type != onnx::TensorProto_DataType_DOUBLE &&
        type != onnx::TensorProto_DataType_BFLOAT16)
      return false;
  }
  return true;
}

/// Ops left without a kernel, by the reason's first words.
using LoweringStats = std::map<std::string, int>;

/// Lowers a planned module to kernels (allow-unlowered) and verifies it.
LogicalResult lowerPlanned(ModuleOp planned, MLIRContext &context, std::string &diagnostics,
                           LoweringStats &stats) {
  diagnostics.clear();
  auto pm = PassManager::on<ModuleOp>(&context);
  pm.addPass(ascendprec::createConvertAscendToKernel(nullptr, /*allowUnlowered=*/true));
  if (failed(pm.run(planned)) || failed(verify(planned)))
    return failure();
  if (auto unlowered = planned->getAttrOfType<ArrayAttr>("akernel.unlowered"))
    stats["ops without a kernel"] += static_cast<int>(unlowered.size());
  stats["kernels"] += static_cast<int>(
      std::distance(planned.getOps<ascendprec::kernel::KernelOp>().begin(),
                    planned.getOps<ascendprec::kernel::KernelOp>().end()));
  return success();
}

int main(int argc, char **argv) {
  bool listGeneric = argc > 1 && std::string(argv[1]) == "--list-generic";
  if (listGeneric) {
    ++argv;
    --argc;
  }
  if (argc < 3) {
    std::cerr << "usage: onnx-sweep [--list-generic] SOC DIR...\n";
    return 2;
  }
  std::string soc = argv[1];
  DialectRegistry registry;
  ascendprec::registerAllAscendPrecDialects(registry);
  ascendprec::registerAllAscendPrecPasses();

  unsigned models = 0, full = 0, generic = 0, importFailed = 0, skipped = 0,
           unsupportedType = 0;
  // Imported models ATC would refuse (E13010: a node without a parser
  // plugin, data/onnx/parser-plugins.tsv), and of the generic ones.
  unsigned atcRefused = 0, genericAtcRefused = 0;
  std::map<std::string, unsigned> unmapped;
  std::map<std::string, unsigned> planned, ruleErrors;
  std::vector<std::string> problems;
  std::set<std::string> loweredModels;
  LoweringStats loweringStats;
  std::vector<std::string> rejectedModels, controlFlowModels;

  for (int d = 2; d < argc; ++d) {
    std::error_code error;
    if (!fs::is_directory(argv[d], error)) {
      std::cerr << "onnx-sweep: " << argv[d]
                << ": not a directory (install libonnx-testdata or pass its data/ folders)\n";
      return 2;
    }
    std::vector<fs::path> files;
    for (const auto &entry : fs::recursive_directory_iterator(argv[d]))
      if (entry.path().filename() == "model.onnx")
        files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    bool nodeTests = fs::path(argv[d]).filename() == "node";
    for (const fs::path &file : files) {
      std::ifstream in(file, std::ios::binary);
      std::stringstream buffer;
      buffer << in.rdbuf();
      std::string bytes = buffer.str();
      if (nodeTests && !hasOnlyFloatInputs(bytes)) {
        ++skipped;
        continue;
      }
      ++models;
      MLIRContext context(registry);
      context.loadAllAvailableDialects();
      std::string diagnostics, warnings;
      bool ruleError = false;
      ScopedDiagnosticHandler capture(&context, [&](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error) {
          diagnostics += diag.str() + "\n";
          ruleError |= !ascendprec::ascend::taggedRule(diag).empty();
        }
        else if (diag.getSeverity() == DiagnosticSeverity::Warning)
          warnings += "    " + diag.str() + "\n";
        return success();
      });
      ascendprec::ONNXImportStats stats;
      OwningOpRef<ModuleOp> module = ascendprec::importONNX(bytes, file.string(), &context, &stats);
      if (!module && diagnostics.find("is not a tensor of a supported element type") !=
                         std::string::npos) {
        // String or complex tensors: a documented limit, reported clearly.
        ++unsupportedType;
        rejectedModels.push_back(file.parent_path().filename().string());
        continue;
      }
      if (!module && (diagnostics.find("uses the opset-8 form") != std::string::npos ||
                      diagnostics.find("only If, Loop and Scan subgraphs are imported") !=
                          std::string::npos)) {
        // Opset-8 Scan and ops with other subgraphs: a documented limit,
        // refused with an error naming the node (never dropped).
        controlFlowModels.push_back(file.parent_path().filename().string());
        continue;
      }
      if (!module) {
        ++importFailed;
        problems.push_back("import failed: " + file.string() + ": " + diagnostics);
        continue;
      }
      for (const auto &[type, count] : stats.genericOpTypes)
        unmapped[type] += count;
      (stats.generic ? generic : full)++;
      if (!stats.atcRefusals.empty()) {
        ++atcRefused;
        genericAtcRefused += stats.generic ? 1 : 0;
      }
      if (listGeneric && stats.generic)
        std::cout << "  generic in " << file.parent_path().filename().string() << ":\n"
                  << warnings;

      for (const char *mode : kModes) {
        OwningOpRef<ModuleOp> copy = module->clone();
        diagnostics.clear();
        ruleError = false;
        auto pm = PassManager::on<ModuleOp>(&context);
        ascendprec::ascend::GraphPrepareOptions prepare;
        prepare.renameDuplicates = true;
        ascendprec::ascend::buildGraphPreparePipeline(pm, prepare);
        ascendprec::ascend::PrecisionPipelineOptions options;
        options.cann.assign({{"soc_version", soc}, {"precision_mode", mode}});
        ascendprec::ascend::buildPrecisionPipeline(pm, options);
        if (succeeded(pm.run(*copy)) && succeeded(verify(*copy))) {
          ++planned[mode];
          // The first plan of each model is lowered to kernels too (issue
          // 13): ops without a lowering are a result; a failing lowering or
          // invalid kernels are a problem.
          if (loweredModels.insert(file.string()).second &&
              failed(lowerPlanned(*copy, context, diagnostics, loweringStats)))
            problems.push_back(std::string("lowering failed (") + mode + "): " +
                               file.string() + ": " + diagnostics);
          continue;
        }
        // A rule that cannot be met is a result, not a failure.
        if (ruleError) {
          ++ruleErrors[mode];
          if (std::string(mode) == "force_fp16" || listGeneric)
            std::cout << "  rule error under " << mode << " (a result, not a failure): "
                      << file.string() << ": " << diagnostics.substr(0, 300) << "\n";
          continue;
        }
        problems.push_back(std::string("planning failed (") + mode + "): " +
                           file.string() + ": " + diagnostics);
      }
    }
  }

  std::cout << "ONNX sweep on " << soc << ": " << models << " models ("
            << skipped << " non-float node tests skipped)\n"
            << "  imported fully: " << full << " ("
            << std::fixed << std::setprecision(1)
            << (models ? 100.0 * full / models : 0.0)
            << "% of the swept models have 0 generic ops; target 95%)"
            << "\n  imported with ascend.generic: " << generic
            << "\n  refused by ATC (E13010, no parser plugin): " << atcRefused << " ("
            << genericAtcRefused << " of those with ascend.generic)"
            << "\n  rejected for an unsupported element type (string, complex): "
            << unsupportedType;
  for (const std::string &model : rejectedModels)
    std::cout << " " << model;
  std::cout << "\n  refused for control flow (opset-8 Scan, subgraphs of other ops): "
            << controlFlowModels.size();
  for (const std::string &model : controlFlowModels)
    std::cout << " " << model;
  std::cout << "\n  import failed: " << importFailed << "\n";
  std::cout << "  unmapped op types (nodes):";
  for (const auto &[type, count] : unmapped)
    std::cout << " " << type << "(" << count << ")";
  std::cout << "\n  planned / rule error per precision_mode:\n";
  for (const char *mode : kModes)
    std::cout << "    " << mode << ": " << planned[mode] << " planned, "
              << ruleErrors[mode] << " rule errors\n";
  std::cout << "  lowered to kernels: " << loweredModels.size() << " models,";
  for (const auto &[what, count] : loweringStats)
    std::cout << " " << count << " " << what << ",";
  std::cout << "\n";
  for (const std::string &problem : problems)
    std::cout << "PROBLEM " << problem << "\n";
  std::cout << (problems.empty() ? "sweep: OK\n" : "sweep: FAILED\n");
  return problems.empty() ? 0 : 1;
}
