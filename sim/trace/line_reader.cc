#include "sim/trace/line_reader.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>

#include "sim/core/status.h"

namespace ziosim {
namespace {

constexpr size_t kInitialBufferBytes = 256 * 1024;
// zlib's own buffer, smaller than ours: gzread then reads a plain file
// straight into our buffer instead of copying it through zlib's.
constexpr unsigned kZlibBufferBytes = 64 * 1024;

gzFile AsGz(void* f) { return static_cast<gzFile>(f); }

}  // namespace

LineReader::LineReader(std::string path) : path_(std::move(path)), buffer_(kInitialBufferBytes) {
  errno = 0;
  file_ = gzopen(path_.c_str(), "rb");
  if (file_ == nullptr) {
    throw InputError(path_ + ": cannot open: " + (errno != 0 ? std::strerror(errno) : "out of memory"));
  }
  gzbuffer(AsGz(file_), kZlibBufferBytes);
}

LineReader::~LineReader() { gzclose_r(AsGz(file_)); }

bool LineReader::Refill() {
  if (eof_) return false;
  const size_t unread = end_ - begin_;
  std::memmove(buffer_.data(), buffer_.data() + begin_, unread);
  begin_ = 0;
  end_ = unread;
  // A line longer than the buffer: grow it (the only allocation after construction).
  if (end_ == buffer_.size()) buffer_.resize(2 * buffer_.size());
  const int got = gzread(AsGz(file_), buffer_.data() + end_, static_cast<unsigned>(buffer_.size() - end_));
  int err = Z_OK;
  const char* message = gzerror(AsGz(file_), &err);
  // zlib reports a truncated gzip stream as Z_BUF_ERROR with a short (not failed) read.
  if (got < 0 || err != Z_OK) {
    throw InputError(path_, line_number_ + 1,
                     std::string("read error: ") + (err == Z_ERRNO ? std::strerror(errno) : message));
  }
  if (got == 0) {
    eof_ = true;
    return false;
  }
  end_ += static_cast<size_t>(got);
  return true;
}

bool LineReader::Next(std::string_view& line) {
  size_t scanned = begin_;  // bytes before this offset are known to hold no '\n'
  for (;;) {
    const void* nl = std::memchr(buffer_.data() + scanned, '\n', end_ - scanned);
    if (nl != nullptr) {
      const size_t at = static_cast<size_t>(static_cast<const char*>(nl) - buffer_.data());
      size_t stop = at;
      if (stop > begin_ && buffer_[stop - 1] == '\r') --stop;
      line = std::string_view(buffer_.data() + begin_, stop - begin_);
      begin_ = at + 1;
      ++line_number_;
      return true;
    }
    const size_t scanned_from_begin = end_ - begin_;
    if (!Refill()) break;
    scanned = begin_ + scanned_from_begin;
  }
  if (begin_ == end_) return false;
  // The last line has no newline.
  size_t stop = end_;
  if (buffer_[stop - 1] == '\r') --stop;
  line = std::string_view(buffer_.data() + begin_, stop - begin_);
  begin_ = end_;
  ++line_number_;
  return true;
}

}  // namespace ziosim
