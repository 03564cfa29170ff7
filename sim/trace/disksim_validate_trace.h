// Reader for DiskSim's "validate" traces: requests captured on a real drive,
// one per line, with the service time the drive took:
//
//   R|W  Hit|Miss|Doub|Trip  blkno  nsectors  measured_service_us  next_interarrival_us
//
// blkno and nsectors count 512-byte blocks; the last field is the idle time
// between this request's completion and the next one's issue. Field 2 is the
// trace collector's annotation (buffer outcome, or bus disconnects for writes),
// kept only for reports. Files may be gzip-compressed. Blank lines are skipped;
// any other malformed line is an InputError "FILE:LINE: field NAME: ...".
#ifndef ZIOSIM_SIM_TRACE_DISKSIM_VALIDATE_TRACE_H_
#define ZIOSIM_SIM_TRACE_DISKSIM_VALIDATE_TRACE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "models/device/device.h"
#include "sim/core/time.h"
#include "sim/trace/line_reader.h"

namespace ziosim {

inline constexpr int64_t kValidateBlockBytes = 512;

enum class ValidateAnnotation : uint8_t { kHit, kMiss, kDoub, kTrip };
const char* AnnotationName(ValidateAnnotation a);  // "Hit", "Miss", "Doub", "Trip"

struct ValidateRecord {
  IoOp op = IoOp::kRead;
  ValidateAnnotation annotation = ValidateAnnotation::kHit;
  int64_t lbn = 0;     // first 512-byte block
  int64_t blocks = 0;  // > 0
  // Kept as the trace's microseconds / 1000, not rounded to ns, so that the
  // metric sees exactly the samples DiskSim's own tools see.
  double measured_ms = 0;
  // The same time as the trace wrote it, when in fixed point (DIGITS[.DIGITS]):
  // measured_digits / 10^measured_decimals us, and measured_ms is
  // FixedPointMicrosToMs of them. measured_decimals is -1 for any other text
  // (an exponent, a sign). Times written with as many decimals sort as their
  // digits do, which the figures use to sort a million in few passes.
  uint64_t measured_digits = 0;
  int measured_decimals = -1;
  SimTime gap_after_ns = 0;  // idle time after completion, before the next issue
  int line = 0;              // 1-based line in the trace file, for error messages
};

// digits / 10^decimals us in ms, rounded as a validate record's measured_ms is.
// REQUIRES: the pair is a record's measured_digits and measured_decimals >= 0.
double FixedPointMicrosToMs(uint64_t digits, int decimals);

// Parses one non-blank line. Throws InputError(file, line_number, "field NAME: ...").
ValidateRecord ParseValidateLine(std::string_view text, const std::string& file, int line_number);

class DisksimValidateTrace {
 public:
  // Throws InputError if `path` cannot be opened.
  explicit DisksimValidateTrace(std::string path) : reader_(std::move(path)) {}

  // Fills `record` with the next request and returns true; false at end of file.
  bool Next(ValidateRecord& record);

  const std::string& path() const { return reader_.path(); }

 private:
  LineReader reader_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_TRACE_DISKSIM_VALIDATE_TRACE_H_
