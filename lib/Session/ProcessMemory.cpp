//===- ProcessMemory.cpp - the driver's resident memory -------------------===//
//
// prec-compile's peak resident set was 130 MB on PP-OCR's classifier, of
// which about 100 MB were pages of libLLVM and libMLIR that only their
// loading had touched (relocations, symbol tables, static initializers):
// more than onnxruntime's whole process (85 MB). Those pages are clean, so
// they are given back with MADV_DONTNEED, which on a private mapping of a
// file drops the pages and lets a later access read them again; that
// holds only where no page was written, hence read-only segments only.
//
//===----------------------------------------------------------------------===//

#include "AscendPrec/Session/ProcessMemory.h"

#include <cstdint>
#include <cstring>

#if defined(__linux__)
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>
#define ASCENDPREC_RELEASE_LIBRARY_PAGES 1
#endif

using namespace ascendprec;

#if defined(ASCENDPREC_RELEASE_LIBRARY_PAGES)
namespace {

bool isCompilerLibrary(const char *path) {
  return path && (std::strstr(path, "/libLLVM") || std::strstr(path, "/libMLIR"));
}

/// dl_iterate_phdr's callback: every loaded PT_LOAD segment of a compiler
/// library that is never writable, in whole pages.
int releaseReadOnlySegments(struct dl_phdr_info *info, size_t, void *released) {
  if (!isCompilerLibrary(info->dlpi_name))
    return 0;
  auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &header = info->dlpi_phdr[i];
    // A writable segment holds relocated data (RELRO included, made
    // read-only only after the loader wrote it): never given back.
    if (header.p_type != PT_LOAD || (header.p_flags & PF_W))
      continue;
    uintptr_t start = info->dlpi_addr + header.p_vaddr;
    uintptr_t end = start + header.p_memsz;
    start = (start + page - 1) / page * page;
    end = end / page * page;
    if (end > start &&
        madvise(reinterpret_cast<void *>(start), end - start, MADV_DONTNEED) == 0)
      *static_cast<size_t *>(released) += end - start;
  }
  return 0;
}

} // namespace
#endif

size_t session::releaseCompilerLibraryPages() {
  size_t released = 0;
#if defined(ASCENDPREC_RELEASE_LIBRARY_PAGES)
  dl_iterate_phdr(releaseReadOnlySegments, &released);
#endif
  return released;
}
