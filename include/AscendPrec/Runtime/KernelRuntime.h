//===- KernelRuntime.h - what JIT-compiled kernels call -------------------===//
//
// The codegen (prec-convert-kernel-to-std) turns an akernel kernel's control
// flow, index arithmetic and vector compute into upstream dialects, and its
// data-movement, cube and reduction ops into calls of these C functions:
// the MTE loads and stores with their zero-fill/crop/img2col addressing, the
// fixpipe's one rounding, the cube's fp32 multiply-accumulate, reductions
// and pooling with their accumulation dtype. Memrefs arrive as unranked
// descriptors (rank, pointer to MLIR's ranked descriptor), so one C
// function serves every element type; dtypes come as ElementType codes.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_RUNTIME_KERNELRUNTIME_H
#define ASCENDPREC_RUNTIME_KERNELRUNTIME_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ascendprec::runtime {

/// `akernel.load` addressing modes (the codegen passes one of these).
enum class LoadMode : int32_t { Plain = 0, Transpose = 1, Broadcast = 2, Img2Col = 3,
                                TransposedFilter = 4, GroupedFilter = 5 };
/// `akernel.vreduce` kinds and `akernel.vpool` kinds. ArgMax/ArgMin write
/// the index of the extreme (first on ties, first NaN) as an integer.
enum class ReduceKind : int32_t { Sum = 0, Max = 1, Min = 2, Prod = 3, Mean = 4, ArgMax = 5,
                                  ArgMin = 6 };
enum class PoolKind : int32_t { Max = 0, Avg = 1 };
/// `akernel.vinterp`'s mode, coordinate mapping and padding.
enum class InterpMode : int32_t { Nearest = 0, Bilinear = 1, Bicubic = 2 };
enum class InterpCoordinates : int32_t { AlignCorners = 0, HalfPixel = 1, Asymmetric = 2 };
enum class InterpPadding : int32_t { Zeros = 0, Border = 1, Reflection = 2 };
/// `akernel.recurrent`'s cell and direction; its flags say which optional
/// buffers are present.
/// `akernel.vtopk`'s order.
enum class TopKOrder : int32_t { Smallest = 0, Largest = 1 };
enum class RecurrentCell : int32_t { Lstm = 0, Gru = 1, Rnn = 2 };
enum class RecurrentDirection : int32_t { Forward = 0, Reverse = 1, Bidirectional = 2 };
enum RecurrentFlags : int32_t { HasBias = 1, HasInitH = 2, HasInitC = 4, LinearBeforeReset = 8,
                                HasSeqLength = 16 };

/// A new launch identity (nonzero, unique in the process).
uint64_t newLaunchId();
/// Marks the blocks the calling thread runs next as launch `id`'s (0: no
/// launch). The cube loop keeps the tiles of B a kernel only reads for the
/// whole launch instead of one block run: within a launch no kernel writes
/// them. A thread with no launch set keeps them for one block run.
void setLaunchId(uint64_t id);

/// Marks [data, data + bytes) as memory nothing writes until
/// forgetConstant(data) (a model's weights, held by the executor): the cube
/// loop keeps the tiles of B it loads from there, planned, for every later
/// launch (lib/Runtime/ConstantTiles.cpp). Calls nest: memory remembered
/// twice is forgotten by the second forgetConstant.
void rememberConstant(const void *data, size_t bytes);
void forgetConstant(const void *data);

/// How many host threads a run uses (--threads): a bidirectional recurrent
/// layer, one kernel on one core, runs its two directions at once when
/// there are two.
void setHostThreads(unsigned threads);
unsigned hostThreads();

/// The runtime's C symbols by name, for the JIT's symbol map. The codegen
/// declares one function per element-type signature, named
/// `<symbol>__<suffix>`; every such declaration binds to `<symbol>`.
const std::vector<std::pair<std::string, void *>> &kernelRuntimeSymbols();

} // namespace ascendprec::runtime

#endif // ASCENDPREC_RUNTIME_KERNELRUNTIME_H
