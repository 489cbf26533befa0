//===- KernelCost.cpp - estimated device time of akernel kernels ----------===//

#include "AscendPrec/Dialect/Kernel/Analysis/KernelCost.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace ascendprec;
using namespace ascendprec::kernel;

namespace {

double bytesOf(Type type) {
  auto shaped = cast<ShapedType>(type);
  Type element = shaped.getElementType();
  double width = element.isIntOrFloat() ? std::max(element.getIntOrFloatBitWidth(), 8u) / 8.0 : 1;
  return static_cast<double>(shaped.getNumElements()) * width;
}

double elementBytes(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isIntOrFloat() ? std::max(element.getIntOrFloatBitWidth(), 8u) / 8.0 : 1;
}

std::optional<int64_t> constantIndex(Value value) {
  if (auto constant = value.getDefiningOp<arith::ConstantIndexOp>())
    return constant.value();
  return std::nullopt;
}

/// How often the busiest core (block 0) runs `op`: the product of the trip
/// counts of the loops around it. A loop from block_idx stepping by the
/// block count runs ceil(upper / step) times on block 0.
double tripCount(Operation *op) {
  double trips = 1;
  for (Operation *parent = op->getParentOp(); parent && !isa<KernelOp>(parent);
       parent = parent->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(parent);
    if (!loop)
      continue;
    std::optional<int64_t> upper = constantIndex(loop.getUpperBound());
    std::optional<int64_t> step = constantIndex(loop.getStep());
    std::optional<int64_t> lower = constantIndex(loop.getLowerBound());
    if (loop.getLowerBound().getDefiningOp<BlockIdxOp>())
      lower = 0;
    if (!upper || !step || !lower || *step <= 0)
      continue;
    trips *= std::max<double>(std::ceil(static_cast<double>(*upper - *lower) / *step), 0);
  }
  return trips;
}

/// Vector repeats (256-byte passes) for `elements` elements of `type`.
double repeats(double elements, Type type, const CostConstants &constants) {
  return std::ceil(elements * elementBytes(type) / constants.vectorBytesPerCycle);
}

/// The cost of one op in cycles, added to the pipe it runs on. An AI Core
/// runs its pipes at once, each from its own instruction queue (Ascend C's
/// PIPE_M, PIPE_V, PIPE_MTE2, PIPE_MTE1, PIPE_MTE3/PIPE_FIX): the cube,
/// the vector unit, GM -> L1/UB loads, L1 -> L0A/L0B copies, and writes
/// to GM. `move` is what no other pipe takes (DMA kernels, on-chip copies
/// to UB).
struct UnitCycles {
  double cube = 0, vector = 0, load = 0, feed = 0, write = 0, move = 0, aicpu = 0;
  double movement() const { return load + feed + write + move; }
};

/// The depth in K, in elements, of one cube fractal of `input` (m x n x
/// this in one cycle): 16 for fp16/bf16 and 32 for int8 on a 16 x 16 x 16
/// cube, and 4 for fp32. CANN's DtypeMKN gives the int8 depth; the fp32
/// rate is the measured one (docs/cost-model.md): fp32 matmuls on the 910B
/// run at 84.5 TFLOPS against 314.5 for fp16 (3.7x), not the 2x a K
/// fractal of 8 would give.
double kFractalOf(TargetAttr target, Type input) {
  unsigned bits = input.getIntOrFloatBitWidth();
  if (bits >= 32)
    return target.getCubeK() / 4.0;
  return target.getCubeK() * 16.0 / bits;
}

/// L1 buffers a kernel copies into L0A and L0B (its cube's A and B tiles),
/// how many rows of output tiles its tiling has (1 without a `tiling`
/// attribute) and how many of them it walks together.
struct CubeSides {
  llvm::DenseSet<Value> feedsL0A, feedsL0B;
  double rowsOfTiles = 1;
  double band = 1; ///< rows of tiles walked together (the tiling's `band`)
};

CubeSides cubeSidesOf(KernelOp kernel) {
  CubeSides sides;
  kernel.getBody().walk([&](CopyOp copy) {
    if (memorySpaceOf(copy.getTarget().getType()) == MemorySpace::L0A)
      sides.feedsL0A.insert(copy.getSource());
    if (memorySpaceOf(copy.getTarget().getType()) == MemorySpace::L0B)
      sides.feedsL0B.insert(copy.getSource());
  });
  // Rows of output tiles: all tiles over those of one row (the N tiles);
  // a batched product has a row per batch and M tile.
  if (auto tiling = kernel->getAttrOfType<DictionaryAttr>("tiling")) {
    auto tiles = tiling.getAs<IntegerAttr>("tiles"), n = tiling.getAs<IntegerAttr>("n"),
         padded = tiling.getAs<IntegerAttr>("n_padded");
    if (tiles && n && padded && n.getInt() > 0 && padded.getInt() > 0)
      sides.rowsOfTiles = std::max(
          1.0, static_cast<double>(tiles.getInt()) /
                   std::ceil(static_cast<double>(padded.getInt()) / n.getInt()));
    if (auto band = tiling.getAs<IntegerAttr>("band"))
      sides.band = std::max<double>(1, band.getInt());
  }
  return sides;
}

/// A GM -> L1/UB load's cycles on the MTE2 pipe, `trips` times.
double loadCycles(LoadOp load, TargetAttr target, int64_t blockDim, const CubeSides &sides,
                  double trips) {
  double bytes = bytesOf(load.getTarget().getType());
  double source = bytesOf(load.getSource().getType());
  // img2col reads each input element once per band, not once per
  // patch: the window overlap kh*kw / (sh*sw) is reuse on chip.
  if (Img2ColAttr img2col = load.getImg2colAttr()) {
    double overlap = 1;
    for (auto [size, stride] : llvm::zip_equal(img2col.getKernel(), img2col.getStrides()))
      overlap *= static_cast<double>(size) / static_cast<double>(stride);
    bytes /= std::max(overlap, 1.0);
  }
  if (sides.band > 1 && sides.feedsL0B.contains(load.getTarget())) {
    // A batched B ([batch, k, n], one per batch or group) is read by
    // its batch's rows only.
    auto shape = cast<ShapedType>(load.getSource().getType()).getShape();
    double batches = shape.size() == 3 ? static_cast<double>(shape[0]) : 1.0;
    return bandedReadCycles(trips * bytes, source, blockDim, target.getL2(), target.getDdrRate(),
                            target.getL2Rate(), sides.rowsOfTiles / std::max(batches, 1.0),
                            sides.band);
  }
  // A cube kernel's A panel (its L1 tile feeds L0A) is read again by
  // the next tile of its row of output tiles: between two reads only
  // the panels the cores hold are read. Everything else counts the
  // whole buffer.
  double reuse = -1;
  if (sides.feedsL0A.contains(load.getTarget()))
    reuse = source / std::max(sides.rowsOfTiles, 1.0) * std::max<int64_t>(blockDim, 1);
  return gmReadCycles(trips * bytes, source, blockDim, target.getL2(), target.getDdrRate(),
                      target.getL2Rate(), reuse);
}

/// One vector op's cycles: its passes, Newton steps, and the conversions
/// to and from its compute dtype.
double vectorOpCycles(VectorOp vop, const CostConstants &k) {
  Type compute = vop.getCompute();
  double elements = cast<ShapedType>(vop.getOutput().getType()).getNumElements();
  double passes = repeats(elements, compute, k);
  double cycles = passes * vectorInstructions(vop.getKind());
  if (vop.getNewton())
    cycles += passes * 3; // Newton-Raphson: two multiplies and a subtract
  // Converting an input or the output to/from the compute dtype is a
  // pass of its own.
  for (Value input : vop.getInputs())
    if (getElementTypeOrSelf(input.getType()) != compute &&
        cast<ShapedType>(input.getType()).getNumElements() > 1)
      cycles += repeats(elements, compute, k);
  Type output = getElementTypeOrSelf(vop.getOutput().getType());
  if (output != compute && output.isIntOrFloat() && !output.isInteger(1))
    cycles += repeats(elements, compute, k);
  return cycles;
}

/// Per step and direction: [batch, input + hidden] x [input + hidden,
/// gates * hidden] on the cube, ~6 vector passes over the gates, and the
/// weights read from GM (L2 keeps them after the first step).
void addRecurrentCost(RecurrentOp rnn, TargetAttr target, const CostConstants &k, double trips,
                      UnitCycles &units) {
  double ddr = std::max<int64_t>(target.getDdrRate(), 1);
  auto x = cast<ShapedType>(rnn.getBuffers()[0].getType());
  double steps = x.getDimSize(0) * rnn.getDirections();
  double depth = x.getDimSize(2) + rnn.getHiddenSize();
  double n = rnn.getGates() * rnn.getHiddenSize();
  double kFractal = kFractalOf(target, x.getElementType());
  units.cube += trips * steps * std::ceil(x.getDimSize(1) / double(target.getCubeM())) *
                std::ceil(n / target.getCubeN()) * std::ceil(depth / kFractal);
  units.vector += trips * steps * repeats(x.getDimSize(1) * n * 6, x.getElementType(), k);
  double weights = bytesOf(rnn.getBuffers()[1].getType()) + bytesOf(rnn.getBuffers()[2].getType());
  units.move += trips * (weights + steps * bytesOf(x) / x.getDimSize(0)) / ddr;
}

void addOpCost(Operation *op, TargetAttr target, int64_t blockDim, const CostConstants &k,
               const CubeSides &sides, UnitCycles &units) {
  double ddr = std::max<int64_t>(target.getDdrRate(), 1);
  double ddrWrite = target.getDdrWriteRate() > 0 ? target.getDdrWriteRate() : ddr;
  double ubToGM = static_cast<double>(target.getUbDdrRate());
  double onChip = std::max<int64_t>(target.getL2Rate(), 1);
  double trips = tripCount(op);
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](MmadOp mmad) {
        auto lhs = cast<ShapedType>(mmad.getLhs().getType());
        auto rhs = cast<ShapedType>(mmad.getRhs().getType());
        double kFractal = kFractalOf(target, lhs.getElementType());
        double fractals = (lhs.getDimSize(0) / static_cast<double>(target.getCubeM())) *
                          (rhs.getDimSize(1) / static_cast<double>(target.getCubeN())) *
                          (lhs.getDimSize(1) / kFractal);
        units.cube += trips * fractals;
      })
      .Case([&](LoadOp load) { units.load += loadCycles(load, target, blockDim, sides, trips); })
      .Case([&](StoreOp store) {
        units.write += trips * bytesOf(store.getSource().getType()) / (ubToGM > 0 ? ubToGM : ddr);
      })
      .Case([&](FixpipeOp fixpipe) {
        double bytes = bytesOf(fixpipe.getSource().getType()) /
                       elementBytes(fixpipe.getSource().getType()) *
                       elementBytes(fixpipe.getTarget().getType());
        if (memorySpaceOf(fixpipe.getTarget().getType()) == MemorySpace::GM)
          units.write += trips * bytes / ddrWrite;
        else
          units.move += trips * bytes / onChip;
      })
      .Case([&](CopyOp copy) {
        double bytes = trips * bytesOf(copy.getSource().getType());
        std::optional<MemorySpace> to = memorySpaceOf(copy.getTarget().getType());
        if (to == MemorySpace::L0A && target.getL1L0aRate() > 0)
          units.feed += bytes / target.getL1L0aRate();
        else if (to == MemorySpace::L0B && target.getL1L0bRate() > 0)
          units.feed += bytes / target.getL1L0bRate();
        else if (to == MemorySpace::L0A || to == MemorySpace::L0B)
          units.feed += bytes / onChip;
        else
          units.move += bytes / onChip;
      })
      .Case([&](DmaOp dma) {
        // Writes every output byte; reads every input byte, except for the
        // kinds that read only what they write (a gather reads the rows it
        // picks and its indices, a slice the window it keeps).
        double written = 0, read = 0;
        for (Value buffer : dma.getOutputs())
          written += bytesOf(buffer.getType());
        StringRef kind = dma.getKind();
        bool readsWhatItWrites = kind == "gather" || kind == "slice" || kind == "tile" ||
                                 kind == "broadcast" || kind == "resize" || kind == "one_hot";
        for (auto [index, buffer] : llvm::enumerate(dma.getInputs())) {
          double bytes = bytesOf(buffer.getType());
          read += readsWhatItWrites && index == 0 ? std::min(bytes, written) : bytes;
        }
        units.move += trips * (read + written) / ddr / std::max<int64_t>(blockDim, 1);
      })
      .Case([&](VectorOp vop) { units.vector += trips * vectorOpCycles(vop, k); })
      .Case([&](ReduceOp reduce) {
        double elements = cast<ShapedType>(reduce.getInput().getType()).getNumElements();
        double cycles = repeats(elements, reduce.getAcc(), k);
        if (getElementTypeOrSelf(reduce.getInput().getType()) != reduce.getAcc())
          cycles *= 2; // converted on the way in
        if (reduce.getKind() == "argmax" || reduce.getKind() == "argmin")
          cycles *= 2; // a compare and a select of the index with every max/min
        units.vector += trips * cycles;
      })
      .Case([&](kernel::CastOp cast) {
        double elements = llvm::cast<ShapedType>(cast.getInput().getType()).getNumElements();
        Type wider = elementBytes(cast.getInput().getType()) >= elementBytes(cast.getOutput().getType())
                         ? cast.getInput().getType()
                         : cast.getOutput().getType();
        units.vector += trips * repeats(elements, wider, k);
      })
      .Case([&](PoolOp pool) {
        double elements = cast<ShapedType>(pool.getOutput().getType()).getNumElements();
        double window = 1;
        for (int64_t size : pool.getKernel())
          window *= static_cast<double>(size);
        units.vector += trips * repeats(elements * window, pool.getAcc(), k);
      })
      .Case([&](RecurrentOp rnn) { addRecurrentCost(rnn, target, k, trips, units); })
      .Case([&](TopKOp topk) {
        // A bitonic selection: about n * log2(n) compares per row.
        auto input = cast<ShapedType>(topk.getInput().getType());
        double n = std::max<int64_t>(input.getDimSize(1), 2);
        units.vector += trips * repeats(input.getNumElements() * std::ceil(std::log2(n)),
                                        input.getElementType(), k);
      })
      .Case([&](InterpOp interp) {
        // Per output element: its taps (1, 4 or 16), each a multiply-add
        // with its weight, plus the weights' arithmetic.
        double elements = cast<ShapedType>(interp.getOutput().getType()).getNumElements();
        double taps = interp.getMode() == "nearest" ? 1 : interp.getMode() == "bilinear" ? 4 : 16;
        units.vector += trips * repeats(elements * (taps + 4), interp.getAcc(), k);
      })
      .Case([&](AICPUCallOp call) {
        double bytes = 0;
        for (Value buffer : call.getBuffers())
          bytes += bytesOf(buffer.getType());
        units.aicpu += trips * bytes / k.aiCpuBytesPerCycle;
      });
}

/// Trip count of the tile loop (the loop from block_idx) on block 0.
double stepsOf(KernelOp kernel) {
  double steps = 1;
  kernel.getBody().walk([&](scf::ForOp loop) {
    if (!loop.getLowerBound().getDefiningOp<BlockIdxOp>())
      return;
    std::optional<int64_t> upper = constantIndex(loop.getUpperBound());
    std::optional<int64_t> step = constantIndex(loop.getStep());
    if (upper && step && *step > 0)
      steps = std::max(steps, std::ceil(static_cast<double>(*upper) / *step));
  });
  return steps;
}

} // namespace

double ascendprec::kernel::gmReadCycles(double total, double sourceBytes, int64_t blocks,
                                         int64_t l2Bytes, int64_t ddrRate, int64_t l2Rate,
                                         double reuseBytes) {
  double ddr = static_cast<double>(std::max<int64_t>(ddrRate, 1));
  double l2 = static_cast<double>(std::max<int64_t>(l2Rate, 1));
  double first = std::min(total, sourceBytes / static_cast<double>(std::max<int64_t>(blocks, 1)));
  double reuse = reuseBytes >= 0 ? reuseBytes : sourceBytes;
  bool cached = l2Bytes > 0 && reuse <= static_cast<double>(l2Bytes);
  return first / ddr + (total - first) / (cached ? l2 : ddr);
}

double ascendprec::kernel::bandedReadCycles(double total, double sourceBytes, int64_t blocks,
                                             int64_t l2Bytes, int64_t ddrRate, int64_t l2Rate,
                                             double rows, double band) {
  bool fits = l2Bytes > 0 && sourceBytes <= static_cast<double>(l2Bytes);
  double passes = fits ? 1.0 : std::max(1.0, rows / std::max(band, 1.0));
  double fromDdr =
      std::min(total, sourceBytes * passes / static_cast<double>(std::max<int64_t>(blocks, 1)));
  return fromDdr / static_cast<double>(std::max<int64_t>(ddrRate, 1)) +
         (total - fromDdr) / static_cast<double>(std::max<int64_t>(l2Rate, 1));
}

int64_t ascendprec::kernel::vectorInstructions(StringRef kind) {
  // Instruction sequences per element-repeat, as the vector ISA composes
  // them (docs/cost-model.md): one for arithmetic, several for functions
  // built from exp/log/reciprocal steps and polynomial approximations.
  static const llvm::StringMap<int64_t> counts = {
      {"exp", 4},         {"log", 4},          {"sqrt", 2},       {"rsqrt", 2},
      {"reciprocal", 2},  {"div", 2},          {"sigmoid", 6},    {"tanh", 8},
      {"gelu", 10},       {"erf", 12},         {"sin", 12},       {"cos", 12},
      {"tan", 16},        {"asin", 16},        {"acos", 16},      {"atan", 16},
      {"sinh", 8},        {"cosh", 8},         {"asinh", 12},     {"acosh", 12},
      {"atanh", 12},      {"pow", 10},         {"softplus", 8},   {"softsign", 4},
      {"elu", 6},         {"selu", 7},         {"hard_swish", 4}, {"hard_sigmoid", 3},
      {"mod", 4},         {"floor_mod", 5},    {"leaky_relu", 2}, {"prelu", 2},
      {"clip", 2},        {"select", 2},       {"thresholded_relu", 2},
      {"round", 2},       {"sign", 3},         {"is_inf", 2},     {"is_nan", 2}};
  auto found = counts.find(kind);
  return found == counts.end() ? 1 : found->second;
}

KernelCost ascendprec::kernel::estimateKernel(KernelOp kernel, TargetAttr target,
                                              const CostConstants &constants) {
  KernelCost cost;
  cost.name = kernel.getSymName().str();
  cost.engine = kernel.getEngine();
  cost.blockDim = kernel.getBlockDim();
  for (Attribute node : kernel.getNodes())
    cost.nodes.push_back(cast<StringAttr>(node).str());
  UnitCycles units;
  CubeSides sides = cubeSidesOf(kernel);
  kernel.getBody().walk(
      [&](Operation *op) { addOpCost(op, target, cost.blockDim, constants, sides, units); });
  cost.cubeCycles = units.cube;
  cost.vectorCycles = units.vector;
  cost.moveCycles = units.movement();

  double freqMHz = std::max<int64_t>(target.getFreqMhz(), 1);
  if (cost.engine == Engine::AICPU) {
    cost.cycles = units.aicpu;
    cost.launchUs = constants.aiCpuLaunchUs;
    cost.us = cost.cycles / freqMHz + cost.launchUs;
    return cost;
  }
  double sum = units.cube + units.vector + units.movement();
  double longest =
      std::max({units.cube, units.vector, units.load, units.feed, units.write, units.move});
  // Double buffering overlaps the pipes step by step: the longest runs
  // throughout, the others show only while the pipeline fills (one step).
  cost.cycles = kernel.getDoubleBuffer() ? longest + (sum - longest) / stepsOf(kernel) : sum;
  cost.launchUs = constants.aiCoreLaunchUs;
  cost.us = cost.cycles / freqMHz + cost.launchUs;
  return cost;
}

std::vector<KernelCost> ascendprec::kernel::estimateModule(ModuleOp module,
                                                           const CostConstants &constants) {
  std::vector<KernelCost> costs;
  auto target = module->getAttrOfType<TargetAttr>("akernel.target");
  if (!target)
    return costs;
  SymbolTable symbols(module);
  // A kernel launched for several nodes (same signature) is estimated once;
  // each launch is a cost of its own, named after its nodes.
  llvm::DenseMap<Operation *, KernelCost> byKernel;
  module.walk([&](LaunchOp launch) {
    auto kernel = symbols.lookup<KernelOp>(launch.getKernel());
    if (!kernel)
      return;
    auto [it, inserted] = byKernel.try_emplace(kernel.getOperation());
    if (inserted)
      it->second = estimateKernel(kernel, target, constants);
    KernelCost &cost = costs.emplace_back(it->second);
    if (ArrayAttr nodes = launch.getNodesAttr()) {
      auto names = nodes.getAsValueRange<StringAttr>();
      cost.nodes.assign(names.begin(), names.end());
    }
  });
  return costs;
}

double ascendprec::kernel::cubePeakMacsPerSecond(TargetAttr target, Type input) {
  double kFractal = kFractalOf(target, input);
  double macsPerCycle = static_cast<double>(target.getCubeM()) * target.getCubeN() * kFractal;
  return macsPerCycle * target.getCubeCores() * target.getFreqMhz() * 1e6;
}

std::string ascendprec::kernel::describeKernelPrecision(KernelOp kernel) {
  std::vector<std::string> steps;
  auto add = [&](std::string step) {
    if (llvm::find(steps, step) == steps.end())
      steps.push_back(std::move(step));
  };
  auto typeText = [](Type type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    getElementTypeOrSelf(type).print(os);
    return text;
  };
  kernel.getBody().walk([&](Operation *op) {
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](MmadOp mmad) {
          add("cube " + typeText(mmad.getLhs().getType()) + " -> " +
              typeText(mmad.getAcc().getType()) + " accumulate");
        })
        .Case([&](FixpipeOp fixpipe) {
          add("fixpipe " + stringifyRoundingMode(fixpipe.getRound()).str() + " to " +
              typeText(fixpipe.getTarget().getType()) + (fixpipe.getBias() ? " with bias" : ""));
        })
        .Case([&](VectorOp vop) {
          add("vector " + vop.getKind().str() + " in " + typeText(vop.getCompute()) +
              (vop.getNewton() ? " + Newton step" : ""));
        })
        .Case([&](ReduceOp reduce) {
          if (reduce.getKind() == "argmax" || reduce.getKind() == "argmin")
            return add(reduce.getKind().str() + " comparing in " + typeText(reduce.getAcc()) +
                       " -> " + typeText(reduce.getOutput().getType()) + " index");
          add(reduce.getKind().str() + " accumulating in " + typeText(reduce.getAcc()) + " (" +
              stringifyReduceOrder(reduce.getOrder()).str() + " order)");
        })
        .Case([&](kernel::CastOp cast) {
          Type from = getElementTypeOrSelf(cast.getInput().getType());
          Type to = getElementTypeOrSelf(cast.getOutput().getType());
          // A widening float conversion is exact: no rounding to name.
          bool exact = isa<FloatType>(from) && isa<FloatType>(to) &&
                       to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth();
          add("vcast " + typeText(from) + " -> " + typeText(to) + " " +
              (exact ? std::string("(exact)") : stringifyRoundingMode(cast.getRound()).str()));
        })
        .Case([&](PoolOp pool) {
          add(pool.getKind().str() + " pool accumulating in " + typeText(pool.getAcc()));
        })
        .Case([&](TopKOp topk) {
          add(std::string(topk.getLargest() ? "top-k largest" : "top-k smallest") +
              " (exact compares)");
        })
        .Case([&](RecurrentOp rnn) {
          add(rnn.getCell().str() + " layer: cube " + typeText(rnn.getBuffers()[0].getType()) +
              " -> f32 accumulate, gates in f32 rounded to " + typeText(rnn.getY().getType()));
        })
        .Case([&](InterpOp interp) {
          add(interp.getMode().str() + (interp.getGrid() ? " grid sample" : " resize") +
              " weighing in " + typeText(interp.getAcc()));
        })
        .Case([&](DmaOp dma) {
          add("DMA " + dma.getKind().str() + (dma.getBoundsCheck() ? " with index checks" : ""));
        })
        .Case([&](AICPUCallOp call) { add("AI CPU " + call.getOpType().str()); });
  });
  std::string text;
  for (size_t i = 0; i < steps.size(); ++i)
    text += (i ? "; " : "") + steps[i];
  return text;
}
