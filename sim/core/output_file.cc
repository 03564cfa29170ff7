#include "sim/core/output_file.h"

#include <unistd.h>

#include <charconv>
#include <cstring>
#include <filesystem>

#include "sim/core/status.h"

namespace ziosim {

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)), temp_path_(path_ + ".tmp." + std::to_string(::getpid())) {
  out_.open(temp_path_, std::ios::out | std::ios::trunc);
  if (!out_) throw InputError(path_ + ": cannot write: " + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  out_.close();
  std::error_code ignored;
  std::filesystem::remove(temp_path_, ignored);
}

void AtomicFile::Commit() {
  out_.close();
  if (!out_) throw InputError(path_ + ": write failed: " + std::strerror(errno));
  std::error_code ec;
  std::filesystem::rename(temp_path_, path_, ec);
  if (ec) throw InputError(path_ + ": cannot rename the finished file into place: " + ec.message());
  committed_ = true;
}

void PutNumber(std::ostream& out, double v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.write(buf, end - buf);
}

}  // namespace ziosim
