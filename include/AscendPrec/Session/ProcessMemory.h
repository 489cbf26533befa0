//===- ProcessMemory.h - the driver's resident memory ---------------------===//
//
// Part of AscendPrec. A process that runs the compiler as a tool may call
// this once; the library never does it on its own.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_PROCESSMEMORY_H
#define ASCENDPREC_SESSION_PROCESSMEMORY_H

#include <cstddef>

namespace ascendprec::session {

/// Gives back the resident pages of the read-only segments (code, read-only
/// data, symbol tables) of the LLVM and MLIR shared libraries this process
/// has loaded. Loading them touches tens of megabytes there: the dynamic
/// loader looks up every symbol their relocations name, and thousands of
/// static initializers run, one page or more each. Those pages are clean
/// copies of the files, so giving them back changes no byte the process
/// sees: a later access reads the page again (from the page cache, where
/// it usually still is). Writable segments, whose relocated pages differ
/// from the file, are left alone. Returns the bytes of the segments given
/// back (0 where the host has no way to, e.g. outside Linux).
size_t releaseCompilerLibraryPages();

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_PROCESSMEMORY_H
