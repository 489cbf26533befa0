//===- Tensors.cpp - numpy arrays as the engine's host tensors ------------===//

#include "Tensors.h"

#include <cstring>
#include <optional>

namespace py = pybind11;
using ascendprec::runtime::ElementType;
using ascendprec::runtime::HostTensor;

namespace ascendprec::python {

namespace {

std::optional<ElementType> elementTypeOf(const py::dtype &dtype) {
  char kind = dtype.kind();
  size_t size = dtype.itemsize();
  if (kind == 'f')
    return size == 2 ? std::optional(ElementType::F16)
           : size == 4 ? std::optional(ElementType::F32)
           : size == 8 ? std::optional(ElementType::F64)
                       : std::nullopt;
  if (kind == 'i')
    return size == 1 ? std::optional(ElementType::I8)
           : size == 2 ? std::optional(ElementType::I16)
           : size == 4 ? std::optional(ElementType::I32)
           : size == 8 ? std::optional(ElementType::I64)
                       : std::nullopt;
  if (kind == 'u')
    return size == 1 ? std::optional(ElementType::U8)
           : size == 2 ? std::optional(ElementType::U16)
           : size == 4 ? std::optional(ElementType::U32)
           : size == 8 ? std::optional(ElementType::U64)
                       : std::nullopt;
  if (kind == 'b')
    return ElementType::I1;
  return std::nullopt;
}

const char *numpyName(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return "float16";
  case ElementType::BF16: // widened
  case ElementType::F32:
    return "float32";
  case ElementType::F64:
    return "float64";
  case ElementType::I1:
    return "bool";
  case ElementType::I8:
    return "int8";
  case ElementType::I16:
    return "int16";
  case ElementType::I32:
    return "int32";
  case ElementType::I64:
    return "int64";
  case ElementType::U8:
    return "uint8";
  case ElementType::U16:
    return "uint16";
  case ElementType::U32:
    return "uint32";
  case ElementType::U64:
    return "uint64";
  }
  return "float32";
}

} // namespace

HostTensor toHostTensor(py::handle value, const std::string &name) {
  py::module_ numpy = py::module_::import("numpy");
  // C order, 0-d arrays kept (ascontiguousarray would make them 1-d), and
  // the host's byte order (a big-endian array is converted, not reread).
  py::array array = numpy.attr("asarray")(value, py::arg("order") = "C");
  if (!array.dtype().attr("isnative").cast<bool>())
    array = array.attr("astype")(array.dtype().attr("newbyteorder")("="));
  std::optional<ElementType> type = elementTypeOf(array.dtype());
  if (!type)
    throw py::value_error("input '" + name + "' has dtype " +
                          py::str(array.dtype()).cast<std::string>() +
                          ", which a run does not take (float16/32/64, int8-64, uint8-64, bool)");
  std::vector<int64_t> shape(array.shape(), array.shape() + array.ndim());
  HostTensor tensor(*type, shape);
  if (tensor.byteSize())
    std::memcpy(tensor.data(), array.data(), tensor.byteSize());
  return tensor;
}

py::array toNumpy(const HostTensor &tensor) {
  HostTensor copy =
      tensor.type() == ElementType::BF16 ? tensor.convertedTo(ElementType::F32) : tensor;
  std::vector<py::ssize_t> shape(copy.shape().begin(), copy.shape().end());
  py::array array(py::dtype(numpyName(copy.type())), shape);
  if (copy.byteSize())
    std::memcpy(array.mutable_data(), copy.data(), copy.byteSize());
  return array;
}

} // namespace ascendprec::python
