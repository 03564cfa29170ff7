// Streams the lines of a text file that may be gzip-compressed (zlib reads
// plain files transparently), counting line numbers for error messages.
// Lines come back as views into one reused buffer, so reading allocates only
// when a line is longer than any before it.
#ifndef ZIOSIM_SIM_TRACE_LINE_READER_H_
#define ZIOSIM_SIM_TRACE_LINE_READER_H_

#include <string>
#include <string_view>
#include <vector>

namespace ziosim {

class LineReader {
 public:
  // Throws InputError naming `path` if it cannot be opened.
  explicit LineReader(std::string path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Stores the next line, without its "\n" or "\r\n", in `line` (valid until the
  // next call) and returns true; returns false at end of file. A last line
  // without a newline is still a line. Throws InputError on a read or gzip error.
  bool Next(std::string_view& line);

  const std::string& path() const { return path_; }
  // 1-based number of the line Next() returned last (0 before the first).
  int line_number() const { return line_number_; }

 private:
  // Moves the unread tail to the buffer's front and reads more; false at end of file.
  bool Refill();

  std::string path_;
  void* file_ = nullptr;  // gzFile, kept opaque so that users need not include zlib.h
  std::vector<char> buffer_;
  size_t begin_ = 0;  // first unread byte in buffer_
  size_t end_ = 0;    // one past the last valid byte in buffer_
  bool eof_ = false;
  int line_number_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_TRACE_LINE_READER_H_
