//===- Module.cpp - the _ascendprec extension module ----------------------===//
//
// The engine (lib/Session) for the pure-Python package around it
// (python/ascendprec): ascendprec/_api.py is what users call.
//
//===----------------------------------------------------------------------===//

#include "EngineErrors.h"

#include "AscendPrec/Execution/KernelCache.h"

#include <sys/stat.h>

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace ascendprec::python {
void bindSession(py::module_ &module);
} // namespace ascendprec::python

PYBIND11_MODULE(_ascendprec, module) {
  module.doc() = "AscendPrec's engine: CANN precision planning, device-time estimates and "
                 "host runs with the device's roundings";
  ascendprec::python::registerEngineErrors(module);
  ascendprec::python::bindSession(module);
  module.def(
      "set_kernel_cache",
      [](const std::string &folder) {
        // As prec-compile's --kernel-cache: a folder (made when missing) or
        // "off"; a file there would leave every run uncached.
        if (auto why = ascendprec::exec::KernelCache::whyNotAFolder(folder))
          throw py::value_error("set_kernel_cache takes a folder (made when missing) or 'off': " +
                                *why);
        ascendprec::exec::KernelCache::configure(folder);
      },
      py::arg("folder"),
      "Where compiled kernels are kept for later runs: a folder, or 'off'.");
  module.def("default_kernel_cache", &ascendprec::exec::KernelCache::defaultFolder);
}
