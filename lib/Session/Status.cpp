//===- Status.cpp - engine errors as the command line shows them ----------===//

#include "AscendPrec/Session/Status.h"

namespace ascendprec::session {

std::string Error::format(const std::string &tool) const {
  std::string where = file.empty() ? tool : file;
  if (!file.empty() && line)
    where += ":" + std::to_string(line) + ":" + std::to_string(column);
  std::string text = where + (kind == Kind::Internal ? ": internal error: " : ": error: ") +
                     message + "\n";
  for (const std::string &detail : details)
    text += "  " + detail + "\n";
  return text;
}

Status Status::user(std::string file, std::string message, std::string rule) {
  Error error;
  error.file = std::move(file);
  error.message = std::move(message);
  error.rule = std::move(rule);
  return Status(std::move(error));
}

Status Status::internal(std::string message) {
  Error error;
  error.kind = Error::Kind::Internal;
  error.message = std::move(message);
  return Status(std::move(error));
}

Status Status::interrupted() {
  Error error;
  error.kind = Error::Kind::Interrupted;
  error.message = "interrupted; nothing was written";
  return Status(std::move(error));
}

} // namespace ascendprec::session
