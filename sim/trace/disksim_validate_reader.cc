// DiskSim "validate" traces through the TraceReader interface. The line syntax
// is DisksimValidateTrace's (disksim_validate_trace.h). Such a trace has no
// arrival times, only each request's measured service time and the idle gap
// after it; the arrival times given here rebuild the real drive's timeline
// (arrival k+1 = arrival k + service k + gap k), and think_ns keeps the gap for
// the validate replay mode.
#include <cmath>
#include <limits>

#include "sim/trace/disksim_validate_trace.h"
#include "sim/trace/line_trace_reader.h"

namespace ziosim {
namespace {

class DisksimValidateReader final : public LineTraceReader {
 public:
  DisksimValidateReader(const std::string& path, const TraceReaderOptions& options)
      : LineTraceReader(path, TraceFormat::kDisksimValidate, options) {}

 private:
  void ProcessLine(std::string_view text, const FieldParser& fields) override {
    const ValidateRecord v = ParseValidateLine(text, fields.file(), fields.line());
    TraceRecord r;
    r.time_ns = next_arrival_ns_;
    r.op = v.op;
    r.offset_bytes = fields.Scaled("blkno", v.lbn, kValidateBlockBytes);
    r.size_bytes = fields.Scaled("nsectors", v.blocks, kValidateBlockBytes);
    if (!(v.measured_ms * 1e6 < static_cast<double>(std::numeric_limits<SimTime>::max() / 4))) {
      fields.Fail("measured_service_us", "too large");
    }
    r.measured_latency_ns = static_cast<SimTime>(std::llround(v.measured_ms * 1e6));
    r.think_ns = v.gap_after_ns;
    r.line = fields.line();
    const SimTime step = r.measured_latency_ns + r.think_ns;  // each < 2^61 and 2^62, so the sum cannot overflow
    if (next_arrival_ns_ > std::numeric_limits<SimTime>::max() / 2 - step) {
      fields.Fail("next_interarrival_us", "too large: the trace's timeline passes 146 years");
    }
    next_arrival_ns_ += step;
    Emit(r);
  }

  SimTime next_arrival_ns_ = 0;
};

}  // namespace

std::unique_ptr<TraceReader> MakeDisksimValidateReader(const std::string& path, const TraceReaderOptions& o) {
  return std::make_unique<DisksimValidateReader>(path, o);
}

}  // namespace ziosim
