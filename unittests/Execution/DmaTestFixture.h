//===- DmaTestFixture.h - akernel.dma ops run on host tensors ---*- C++ -*-===//
//
// Shared by the host DMA kernel tests (DataMovementTest, IndexMovementTest):
// parse one `akernel.dma` op over GM memrefs, build host tensors from
// hand-written values, run the op, read the results back.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_UNITTESTS_EXECUTION_DMATESTFIXTURE_H
#define ASCENDPREC_UNITTESTS_EXECUTION_DMATESTFIXTURE_H

#include "AscendPrec/Execution/DataMovement.h"
#include "AscendPrec/Execution/GraphRun.h"

#include "AscendPrec/InitAll.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ascendprec::testing {

using namespace mlir;
using ascendprec::exec::canRunDataMovement;
using ascendprec::exec::runDataMovement;
using ascendprec::kernel::DmaOp;
using ascendprec::runtime::ElementType;
using ascendprec::runtime::HostTensor;

inline constexpr const char *kTarget =
    "#akernel.target<soc = \"Ascend910\", cube_cores = 32, vector_cores = 32, "
    "aicpu_cores = 14, cube_m = 16, cube_n = 16, cube_k = 16, freq_mhz = 1000, l1 = 1048576, "
    "l0a = 65536, l0b = 65536, l0c = 262144, ub = 262144, l2 = 33554432, ddr_rate = 67, "
    "l2_rate = 128, cube_inputs = [f16, i8]>";

/// The host's element type of an MLIR one (the executor's own mapping).
inline ElementType elementTypeOf(Type type) {
  return *ascendprec::exec::hostElementType(type, /*reference=*/false);
}

/// A tensor holding `values` (rounded to nearest even into its dtype).
inline HostTensor tensor(ElementType type, std::vector<int64_t> shape, const std::vector<double> &values) {
  HostTensor t(type, std::move(shape));
  EXPECT_EQ(static_cast<size_t>(t.numElements()), values.size());
  for (size_t i = 0; i < values.size() && i < static_cast<size_t>(t.numElements()); ++i)
    t.set(static_cast<int64_t>(i), values[i]);
  return t;
}

/// An integer tensor, exactly.
inline HostTensor ints(ElementType type, std::vector<int64_t> shape, const std::vector<int64_t> &values) {
  HostTensor t(type, std::move(shape));
  EXPECT_EQ(static_cast<size_t>(t.numElements()), values.size());
  for (size_t i = 0; i < values.size() && i < static_cast<size_t>(t.numElements()); ++i)
    t.setInt(static_cast<int64_t>(i), values[i]);
  return t;
}

/// 0, 1, 2, ... in `type`.
inline HostTensor iota(ElementType type, std::vector<int64_t> shape) {
  HostTensor t(type, std::move(shape));
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.setInt(i, i);
  return t;
}

inline std::vector<double> values(const HostTensor &t) {
  std::vector<double> result;
  for (int64_t i = 0; i < t.numElements(); ++i)
    result.push_back(t.get(i));
  return result;
}

inline std::vector<int64_t> intValues(const HostTensor &t) {
  std::vector<int64_t> result;
  for (int64_t i = 0; i < t.numElements(); ++i)
    result.push_back(t.getInt(i));
  return result;
}

inline std::vector<uint16_t> bits16(const HostTensor &t) {
  std::vector<uint16_t> result(t.numElements());
  if (!result.empty())
    std::memcpy(result.data(), t.data(), t.byteSize());
  return result;
}

class DmaTest : public ::testing::Test {
protected:
  DmaTest() {
    DialectRegistry registry;
    ascendprec::registerAllAscendPrecDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// One `akernel.dma` of `kind` over GM buffers of the given types
  /// ("2x3xf32", "i64" for a scalar), with `attrs` (the op's attr-dict,
  /// e.g. "{params = {perm = array<i64: 1, 0>}}").
  DmaOp dma(const std::string &kind, const std::vector<std::string> &ins,
            const std::vector<std::string> &outs, const std::string &attrs = "") {
    auto memref = [](const std::string &type) {
      return "memref<" + type + ", #akernel.space<gm>>";
    };
    std::string args, inNames, outNames, inTypes, outTypes;
    for (size_t i = 0; i < ins.size(); ++i) {
      args += (args.empty() ? "" : ", ") + ("%i" + std::to_string(i)) + ": " + memref(ins[i]);
      inNames += (i ? ", %i" : "%i") + std::to_string(i);
      inTypes += (i ? ", " : "") + memref(ins[i]);
    }
    for (size_t i = 0; i < outs.size(); ++i) {
      args += (args.empty() ? "" : ", ") + ("%o" + std::to_string(i)) + ": " + memref(outs[i]);
      outNames += (i ? ", %o" : "%o") + std::to_string(i);
      outTypes += (i ? ", " : "") + memref(outs[i]);
    }
    std::string text = std::string("module attributes {akernel.target = ") + kTarget + "} {\n" +
                       "func.func @f(" + args + ") {\n  akernel.dma \"" + kind + "\" ins(" +
                       inNames + ") outs(" + outNames + ") " + attrs + " : (" + inTypes +
                       ") -> (" + outTypes + ")\n  return\n}\n}";
    modules.push_back(parseSourceString<ModuleOp>(text, &context));
    EXPECT_TRUE(modules.back()) << "failed to parse:\n" << text;
    if (!modules.back())
      return DmaOp();
    DmaOp found;
    modules.back()->walk([&](DmaOp op) { found = op; });
    return found;
  }

  /// Zero-filled outputs of the op's output types.
  std::vector<HostTensor> outputsOf(DmaOp op) {
    std::vector<HostTensor> result;
    for (Value output : op.getOutputs()) {
      auto type = cast<MemRefType>(output.getType());
      result.emplace_back(elementTypeOf(type.getElementType()),
                          std::vector<int64_t>(type.getShape().begin(), type.getShape().end()));
    }
    return result;
  }

  /// Runs `op` on `inputs` into fresh outputs; the test fails on an error.
  std::vector<HostTensor> run(DmaOp op, const std::vector<HostTensor> &inputs) {
    std::string error;
    std::vector<HostTensor> outputs = outputsOf(op);
    EXPECT_TRUE(tryRun(op, inputs, outputs, error)) << error;
    return outputs;
  }

  bool tryRun(DmaOp op, const std::vector<HostTensor> &inputs, std::vector<HostTensor> &outputs,
              std::string &error) {
    std::string why;
    EXPECT_TRUE(canRunDataMovement(op, why)) << why;
    std::vector<const HostTensor *> in;
    std::vector<HostTensor *> out;
    for (const HostTensor &t : inputs)
      in.push_back(&t);
    for (HostTensor &t : outputs)
      out.push_back(&t);
    return runDataMovement(op, in, out, error);
  }

  /// The reason the host refuses `op` ("" if it accepts it).
  std::string refusal(DmaOp op) {
    std::string why;
    if (canRunDataMovement(op, why))
      return "";
    EXPECT_FALSE(why.empty());
    return why;
  }

  MLIRContext context;
  std::vector<OwningOpRef<ModuleOp>> modules;
};

} // namespace ascendprec::testing

#endif // ASCENDPREC_UNITTESTS_EXECUTION_DMATESTFIXTURE_H
