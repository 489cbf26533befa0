//===- Tensors.h - numpy arrays as the engine's host tensors --------------===//

#ifndef ASCENDPREC_PYTHON_TENSORS_H
#define ASCENDPREC_PYTHON_TENSORS_H

#include "AscendPrec/Runtime/HostTensor.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

namespace ascendprec::python {

/// A copy of `value` (a numpy array or anything numpy.asarray takes) as a
/// host tensor of the matching dtype: float16/32/64, int8-64, uint8-64,
/// bool. Throws ValueError naming `name` for another dtype.
runtime::HostTensor toHostTensor(pybind11::handle value, const std::string &name);

/// A copy of `tensor` as a numpy array: fp16 as float16 (the same bits),
/// bf16 widened to float32 (exactly; numpy has no bfloat16), i1 as bool.
pybind11::array toNumpy(const runtime::HostTensor &tensor);

} // namespace ascendprec::python

#endif // ASCENDPREC_PYTHON_TENSORS_H
