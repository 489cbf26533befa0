//===- OutputFolder.h - the folder prec-compile writes, safely ------------===//
//
// prec-compile never deletes or overwrites a file it did not write. It keeps
// a manifest of the files it wrote into a folder, each with its size and
// SHA-256, and touches nothing else there (docs/execution.md):
//  - open() refuses, before any work, a folder that holds one of the run's
//    inputs, the working directory or one of its ancestors, something that
//    is not a folder, a folder that cannot be written, or one that holds a
//    file of an output's name that prec-compile did not write, or whose
//    content changed since (then it is the user's), or a link or other
//    non-regular file where an output or run/ or search/ goes;
//  - stage() creates the folder (and missing parents, remembered) and a
//    staging folder inside it, where the run writes;
//  - commit() checks again, then renames each staged file over the previous
//    one (atomic per file) under a lock on the folder, so that concurrent
//    runs into one folder take turns instead of failing, and rewrites the
//    manifest; a manifest entry naming anything prec-compile does not write
//    is ignored;
//  - a run that does not commit (an error, SIGINT, SIGTERM at any moment)
//    removes its staging folder and every folder it created; a signal during
//    commit() waits for it, so the folder holds the old outputs or the new.
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDPREC_SESSION_OUTPUTFOLDER_H
#define ASCENDPREC_SESSION_OUTPUTFOLDER_H

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ascendprec::session {

class OutputFolder {
public:
  /// Checks `requested` (the --output value, any spelling) against the run's
  /// `inputs` (paths that exist are compared by their real paths). Returns
  /// null with `error` set when the folder must not be used.
  /// `inputFolders` (among `inputs`: a --run folder) may not hold the
  /// output folder either.
  static std::unique_ptr<OutputFolder> open(const std::string &requested,
                                            const std::vector<std::string> &inputs,
                                            const std::vector<std::string> &inputFolders,
                                            std::string &error);
  /// Discards the staged files unless commit() succeeded.
  ~OutputFolder();

  /// Creates the folder if needed and the staging folder inside it.
  bool stage(std::string &error);
  /// Where to write output `name` before commit().
  std::string stagedPath(const std::string &name) const;
  /// Moves the staged files into place. On success `written` lists them.
  bool commit(std::vector<std::string> &written, std::string &error);

  /// Removes the staging folder and the folders this run created (those
  /// still empty). Idempotent; does nothing after a successful commit.
  void discard();
  /// discard() on the folder of the run in progress, if any; for the
  /// interrupt handler (InterruptCleanup.h).
  static void discardActive();

  /// The names prec-compile writes; open() checks them before any work.
  static const std::vector<std::string> &outputNames();
  /// Its bookkeeping file inside the folder: each file it wrote, with its
  /// size and SHA-256.
  static constexpr const char *kManifestName = ".prec-compile-manifest";
  /// The subfolder for a run's outputs (run/output_<i>.pb).
  static constexpr const char *kRunFolder = "run";
  /// The subfolder for a precision search's files (search/options.json).
  static constexpr const char *kSearchFolder = "search";
  /// Every subfolder prec-compile writes files into (one level only).
  static const std::vector<std::string> &subfolders();

private:
  OutputFolder(std::string option, std::filesystem::path folder)
      : option(std::move(option)), folder(std::move(folder)) {}

  std::string option; ///< "--output=<as typed>", for messages
  std::filesystem::path folder, staging;
  std::vector<std::filesystem::path> created; ///< outermost first
  bool committed = false;
  std::mutex mutex; ///< commit() vs. discard() from the interrupt thread
};

/// Writes `text` to `path` (a staged output), never through a symbolic
/// link; false with `error` set ("cannot write 'PATH': No space left on
/// device") when it cannot.
bool writeTextFile(const std::string &path, const std::string &text, std::string &error);

} // namespace ascendprec::session

#endif // ASCENDPREC_SESSION_OUTPUTFOLDER_H
