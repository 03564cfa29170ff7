#include "sim/workload/replay.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "sim/core/scoped_listener.h"
#include "sim/core/status.h"
#include "sim/stats/latency_series.h"
#include "sim/stats/run_check.h"

namespace ziosim {
namespace {

// The series behind one ReplayComparison.
struct Series {
  explicit Series(int64_t limit) : all(limit), simulated_measured(limit), measured(limit) {}
  void Add(SimTime simulated_ns, SimTime measured_ns) {
    all.Add(simulated_ns);
    if (measured_ns >= 0) {
      measured.Add(measured_ns);
      simulated_measured.Add(simulated_ns);
    }
  }
  bool exact() const { return all.exact() && measured.exact(); }
  ReplayComparison Compare() {
    ReplayComparison out;
    out.requests = all.count();
    out.simulated = SummarizeSeries(all);
    out.measured_requests = measured.count();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    out.mean_error_pct = out.demerit_ms = out.demerit_pct = nan;
    if (out.measured_requests == 0) return out;
    out.measured = SummarizeSeries(measured);
    out.simulated_measured = SummarizeSeries(simulated_measured);
    out.demerit_ms = DemeritMs(measured, simulated_measured);
    if (out.measured.mean_ms > 0) {
      out.mean_error_pct = 100.0 * (out.simulated_measured.mean_ms - out.measured.mean_ms) / out.measured.mean_ms;
      out.demerit_pct = 100.0 * out.demerit_ms / out.measured.mean_ms;
    }
    return out;
  }
  LatencySeries all;
  LatencySeries simulated_measured;
  LatencySeries measured;
};

// Every series a replay keeps: all requests, reads, writes, and (per_device) each traced device.
class Tally {
 public:
  explicit Tally(int64_t limit) : limit_(limit), all_(limit), read_(limit), write_(limit) {}
  void Add(const TraceRecord& r, SimTime simulated_ns, bool per_device) {
    all_.Add(simulated_ns, r.measured_latency_ns);
    (r.op == IoOp::kWrite ? write_ : read_).Add(simulated_ns, r.measured_latency_ns);
    if (!per_device) return;
    auto it = devices_.find(r.device);
    if (it == devices_.end()) it = devices_.emplace(r.device, Series(limit_)).first;
    it->second.Add(simulated_ns, r.measured_latency_ns);
  }
  void Fill(ReplayResult& out) {
    out.exact_quantiles = all_.exact() && read_.exact() && write_.exact();
    out.all = all_.Compare();
    out.read = read_.Compare();
    out.write = write_.Compare();
    for (auto& [device, series] : devices_) {
      out.exact_quantiles = out.exact_quantiles && series.exact();
      out.devices.push_back(ReplayDeviceComparison{device, series.Compare()});
    }
  }

 private:
  int64_t limit_;
  Series all_, read_, write_;
  std::map<int64_t, Series> devices_;
};

// A drive as a replay target.
class DeviceTarget final : public ReplayTarget, public DeviceListener {
 public:
  explicit DeviceTarget(Device& dev) : dev_(dev) {}
  const std::string& name() const override { return dev_.name(); }
  // A file-level trace's files all lie on the drive, each at its own offsets.
  int64_t capacity_bytes(int32_t /*file*/) const override { return dev_.capacity_bytes(); }
  int64_t sector_bytes() const override { return dev_.sector_bytes(); }
  bool CanSubmit() const override { return dev_.in_device() < dev_.queue_depth(); }
  void Submit(uint32_t tag, const TraceRecord& record, int64_t offset_bytes, int64_t size_bytes) override {
    dev_.Submit(DeviceRequest{tag, offset_bytes, size_bytes, record.op, record.urgency});
  }
  void set_listener(ReplayTargetListener* listener) override {
    listener_ = listener;
    dev_.set_listener(listener != nullptr ? this : nullptr);
  }
  void Finish(SimTime now) override { dev_.FinishStats(now); }
  void OnDeviceDone(const DeviceRequest& req, SimTime /*submitted*/, SimTime done) override {
    listener_->OnTargetDone(static_cast<uint32_t>(req.tag), done);
  }

 private:
  Device& dev_;
  ReplayTargetListener* listener_ = nullptr;
};

// One instance's replay: its trace, its target, its results; `pooled` (may
// be null) also takes its latencies.
class Replayer final : public EventHandler, public ReplayTargetListener {
 public:
  Replayer(const ReplayInstance& instance, int index, Simulation& sim, const ReplayOptions& options,
           ReplayResult& out, Tally& tally, Tally* pooled)
      : index_(index),
        trace_(*instance.trace),
        target_(*instance.target),
        sim_(sim),
        options_(options),
        on_request_(instance.on_request),
        out_(out),
        tally_(tally),
        pooled_(pooled),
        start_ns_(instance.start_ns),
        refuses_writes_(instance.target->refuses_writes()) {}

  // At start_ns: now if that is now (so that a lone replay's first events
  // come before anything the target schedules), else at an event then.
  void Schedule() {
    if (start_ns_ <= sim_.now()) {
      Start();
    } else {
      sim_.Schedule(start_ns_, this, kStart);
    }
  }

  void Start() {
    switch (options_.mode) {
      case ReplayMode::kOpen:
        if (!Fetch()) return;
        origin_ns_ = TimesFromZero(trace_.format()) ? 0 : next_.time_ns;
        sim_.Schedule(std::max(sim_.now(), OpenArrival(next_)), this, kArrive);
        break;
      case ReplayMode::kClosed:
        for (int i = 0; i < options_.depth && Fetch(); ++i) Admit(next_);
        break;
      case ReplayMode::kValidate:
        if (!Fetch()) return;
        origin_ns_ = TimesFromZero(trace_.format()) ? 0 : next_.time_ns;
        have_next_ = true;
        Pace();
        break;
    }
  }

  void OnEvent(uint32_t kind, uint64_t arg) override {
    if (kind == kStart) {
      Start();
    } else if (kind == kArrive) {
      // Every request due now, then the next arrival.
      do {
        Admit(next_);
        have_next_ = Fetch();
      } while (have_next_ && OpenArrival(next_) <= sim_.now());
      if (have_next_) sim_.Schedule(OpenArrival(next_), this, kArrive);
    } else {  // kIssue: stream `arg`'s next request
      Issue(static_cast<uint32_t>(arg));
    }
  }

  void OnTargetDone(uint32_t tag, SimTime done) override {
    Request& q = slots_.at(tag);
    tally_.Add(q.record, done - q.arrival_ns, options_.per_device);
    if (pooled_ != nullptr) pooled_->Add(q.record, done - q.arrival_ns, options_.per_device);
    out_.end_ns = std::max(out_.end_ns, done);
    ++completed_;
    if (on_request_) {
      on_request_(ReplayRequestResult{q.index, &q.record, q.offset_bytes, q.size_bytes, q.arrival_ns, q.issued_ns,
                                      done, index_});
    }
    const uint32_t stream = q.stream;
    const TraceRecord finished = q.record;
    free_.push_back(tag);
    switch (options_.mode) {
      case ReplayMode::kOpen:
        break;
      case ReplayMode::kClosed:
        if (Fetch()) Admit(next_);
        break;
      case ReplayMode::kValidate:
        StreamDone(stream, finished, done);
        break;
    }
    Dispatch();
  }

  int64_t admitted() const { return admitted_; }
  int64_t completed() const { return completed_; }
  // The trace is exhausted and every request it gave has completed.
  bool finished() const { return exhausted_ && !have_next_ && queued_ == 0 && completed_ == admitted_; }

 private:
  static constexpr uint32_t kArrive = 0;
  static constexpr uint32_t kIssue = 1;
  static constexpr uint32_t kStart = 2;

  struct Request {
    TraceRecord record;
    uint32_t stream = 0;  // validate: its stream's index in streams_
    int64_t index = 0;
    int64_t offset_bytes = 0;
    int64_t size_bytes = 0;
    SimTime arrival_ns = 0;
    SimTime issued_ns = 0;
  };

  // Reads the next record to replay into next_ (passing over other devices'
  // requests and, with reads_only, writes); false at the end of the trace or the limit.
  bool Fetch() {
    if (options_.limit > 0 && fetched_ >= options_.limit) return Exhausted();
    while (trace_.Next(next_)) {
      CountDevice(next_.device);
      if (options_.device >= 0 && next_.device != options_.device) {
        ++out_.other_devices;
      } else if (options_.reads_only && next_.op == IoOp::kWrite) {
        ++out_.skipped_writes;
      } else {
        ++fetched_;
        return true;
      }
    }
    return Exhausted();
  }
  bool Exhausted() {
    exhausted_ = true;
    return false;
  }

  void CountDevice(int64_t device) {
    if (device == last_device_) return;
    last_device_ = device;
    const auto it = std::lower_bound(devices_.begin(), devices_.end(), device);
    if (it != devices_.end() && *it == device) return;
    devices_.insert(it, device);  // once per distinct device
    out_.devices_seen = static_cast<int64_t>(devices_.size());
  }

  SimTime OpenArrival(const TraceRecord& r) const {
    const SimTime since = r.time_ns - origin_ns_;
    if (options_.speed == 1.0) return start_ns_ + since;
    return start_ns_ + static_cast<SimTime>(std::llround(static_cast<double>(since) / options_.speed));
  }

  static SimTime Gap(const TraceRecord& done, const TraceRecord& next) {
    if (done.think_ns >= 0) return done.think_ns;
    if (done.measured_latency_ns >= 0) {
      return std::max<SimTime>(0, next.time_ns - (done.time_ns + done.measured_latency_ns));
    }
    return 0;
  }

  // What a request of `r` goes to, for messages: the target, or a traced file on it.
  std::string Where(const TraceRecord& r) const {
    if (r.file < 0) return target_.name();
    return "file '" + trace_.files()[static_cast<size_t>(r.file)] + "' on " + target_.name();
  }

  // Widens `q` to whole sectors and fits it into the target (or fails).
  void Place(Request& q) {
    const TraceRecord& r = q.record;
    const int64_t sector = target_.sector_bytes();
    const int64_t capacity = target_.capacity_bytes(r.file) / sector * sector;
    if (r.size_bytes > capacity) {
      throw InputError(trace_.path(), r.line,
                       "field size: " + std::to_string(r.size_bytes) + " bytes is more than all of " + Where(r) +
                           " (" + std::to_string(capacity) + " bytes)");
    }
    int64_t offset = r.offset_bytes;
    bool wrapped = false;
    if (offset > capacity - r.size_bytes) {  // runs past the end (written so that it cannot overflow)
      if (!options_.wrap) {
        throw InputError(trace_.path(), r.line,
                         "field offset: " + std::to_string(r.size_bytes) + " bytes at offset " +
                             std::to_string(r.offset_bytes) + " run past the end of " + Where(r) + " (" +
                             std::to_string(capacity) +
                             " bytes); pass --wrap to wrap offsets modulo the target's capacity");
      }
      offset %= capacity;
      wrapped = true;
    }
    // Now offset < capacity and size <= capacity: no overflow below.
    const int64_t begin = offset / sector * sector;
    const int64_t end = (offset + r.size_bytes + sector - 1) / sector * sector;
    if (begin != offset || end != offset + r.size_bytes) ++out_.realigned;
    q.size_bytes = end - begin;
    if (q.size_bytes > capacity) {
      throw InputError(trace_.path(), r.line,
                       "field size: " + std::to_string(r.size_bytes) + " bytes, widened to whole sectors, is more " +
                           "than all of " + Where(r) + " (" + std::to_string(capacity) + " bytes)");
    }
    q.offset_bytes = std::min(begin, capacity - q.size_bytes);  // a wrapped request pulled back inside
    if (wrapped) ++out_.wrapped;
  }

  // ---- validate: each traced stream (TraceRecord::stream) one request at a time

  // A traced thread: its requests not yet issued (the first is due or
  // scheduled while `busy` and nothing of it is in flight), and its last
  // completed request.
  struct Stream {
    int64_t id = 0;
    bool started = false;
    bool busy = false;  // a request in flight, or its next one scheduled
    std::deque<TraceRecord> queued;
    TraceRecord last;
    SimTime last_done_ns = 0;
  };

  uint32_t StreamIndex(int64_t id) {
    if (id == last_stream_id_ && !streams_.empty()) return last_stream_;
    const auto it = std::find_if(streams_.begin(), streams_.end(), [id](const Stream& s) { return s.id == id; });
    last_stream_ = static_cast<uint32_t>(it - streams_.begin());
    last_stream_id_ = id;
    if (it == streams_.end()) streams_.push_back(Stream{.id = id});
    return last_stream_;
  }

  // Reads on through the trace while a stream waits for its next request:
  // a new stream's first request goes in at its recorded time (as in open
  // mode), an idle stream's next one the recorded idle time after its last
  // completed; the requests of busy streams queue behind them (at most
  // kMaxQueued in all, past which the trace is read on only as streams
  // finish).
  void Pace() {
    while (have_next_) {
      const uint32_t i = StreamIndex(next_.stream);
      Stream& s = streams_[i];
      const bool first = !s.started;
      SimTime due = -1;
      if (first) {
        s.started = true;
        due = std::max(sim_.now(), OpenArrival(next_));
      } else if (!s.busy && s.queued.empty()) {
        --idle_streams_;
        due = std::max(sim_.now(), s.last_done_ns + Gap(s.last, next_));  // later if read late
      } else if (idle_streams_ == 0 || queued_ >= kMaxQueued) {
        return;  // next_ waits for a stream to need it
      }
      s.queued.push_back(next_);
      ++queued_;
      have_next_ = Fetch();
      if (due < 0) continue;
      s.busy = true;
      // A stream's first request that is due goes in now, as a lone replay's
      // first does; every later one at an event, even when due now.
      if (first && due == sim_.now()) {
        Issue(i);
      } else {
        sim_.Schedule(due, this, kIssue, i);
      }
    }
  }

  void Issue(uint32_t i) {
    Stream& s = streams_[i];
    const TraceRecord r = s.queued.front();
    s.queued.pop_front();
    --queued_;
    Admit(r, i);
  }

  void StreamDone(uint32_t i, const TraceRecord& finished, SimTime done) {
    Stream& s = streams_[i];
    s.busy = false;
    s.last = finished;
    s.last_done_ns = done;
    if (!s.queued.empty()) {
      s.busy = true;
      sim_.Schedule(done + Gap(finished, s.queued.front()), this, kIssue, i);
      return;
    }
    ++idle_streams_;
    Pace();
  }

  void Admit(const TraceRecord& r, uint32_t stream = 0) {
    if (r.op == IoOp::kWrite && !refuses_writes_.empty()) {
      throw InputError(trace_.path(), r.line, "a write: " + refuses_writes_ + "; pass --reads-only to skip writes");
    }
    Request q;
    q.record = r;
    q.stream = stream;
    q.index = admitted_++;
    q.arrival_ns = sim_.now();
    Place(q);
    ++(r.op == IoOp::kWrite ? out_.writes : out_.reads);
    out_.bytes += q.size_bytes;
    waiting_.push_back(q);
    Dispatch();
    out_.max_waiting = std::max(out_.max_waiting, static_cast<int64_t>(waiting_.size()));
  }

  void Dispatch() {
    while (!waiting_.empty() && target_.CanSubmit()) {
      if (free_.empty()) {  // grows to the most requests in the target at once, then stays
        free_.push_back(static_cast<uint32_t>(slots_.size()));
        slots_.emplace_back();
      }
      const uint32_t slot = free_.back();
      free_.pop_back();
      Request& q = slots_[slot] = waiting_.front();
      waiting_.pop_front();
      q.issued_ns = sim_.now();
      target_.Submit(slot, q.record, q.offset_bytes, q.size_bytes);
    }
  }

  const int index_;
  TraceReader& trace_;
  ReplayTarget& target_;
  Simulation& sim_;
  const ReplayOptions& options_;
  const ReplayRequestCallback& on_request_;
  ReplayResult& out_;
  Tally& tally_;
  Tally* pooled_;
  const SimTime start_ns_;
  const std::string refuses_writes_;
  std::vector<Request> slots_;   // requests in the target, by tag
  std::vector<uint32_t> free_;   // free tags
  std::deque<Request> waiting_;  // arrived, not yet in the target
  std::vector<int64_t> devices_;  // distinct traced devices, sorted
  int64_t last_device_ = -1;
  TraceRecord next_;
  bool have_next_ = false;
  bool exhausted_ = false;
  std::vector<Stream> streams_;  // validate: in order of first appearance
  uint32_t last_stream_ = 0;
  int64_t last_stream_id_ = 0;
  int64_t idle_streams_ = 0;  // started streams idle with nothing queued
  int64_t queued_ = 0;   // requests fetched and not yet issued
  static constexpr int64_t kMaxQueued = int64_t{1} << 20;
  SimTime origin_ns_ = 0;
  int64_t fetched_ = 0;
  int64_t admitted_ = 0;
  int64_t completed_ = 0;
};

void CheckOptions(const ReplayOptions& o) {
  if (o.mode == ReplayMode::kClosed && o.depth < 1) {
    throw InputError("--mode: closed needs at least 1 request outstanding (got " + std::to_string(o.depth) + ")");
  }
  if (!(o.speed > 0) || !std::isfinite(o.speed)) {
    throw InputError("--speed: must be a positive number (got " + std::to_string(o.speed) + ")");
  }
  if (o.limit < 0) throw InputError("--limit: must not be negative (got " + std::to_string(o.limit) + ")");
}

}  // namespace

void ParseReplayMode(std::string_view text, ReplayOptions& options) {
  if (text == "open") {
    options.mode = ReplayMode::kOpen;
    return;
  }
  if (text == "validate") {
    options.mode = ReplayMode::kValidate;
    return;
  }
  if (text.starts_with("closed:")) {
    const std::string_view n = text.substr(7);
    int depth = 0;
    const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), depth);
    if (!n.empty() && ec == std::errc() && end == n.data() + n.size() && depth >= 1) {
      options.mode = ReplayMode::kClosed;
      options.depth = depth;
      return;
    }
  }
  throw InputError("--mode: expected open, closed:N (N >= 1 requests outstanding) or validate, got '" +
                   std::string(text) + "'");
}

std::string ReplayModeName(const ReplayOptions& options) {
  switch (options.mode) {
    case ReplayMode::kOpen: return "open";
    case ReplayMode::kClosed: return "closed:" + std::to_string(options.depth);
    case ReplayMode::kValidate: return "validate";
  }
  return "?";
}

namespace {

// The run's figures once every request has completed: rates over its span, from start_ns to end_ns.
void Conclude(ReplayResult& out, int64_t requests, Tally& tally) {
  out.requests = requests;
  if (out.end_ns > out.start_ns) {
    const double seconds = NsToSec(out.end_ns - out.start_ns);
    out.mb_s = static_cast<double>(out.bytes) / seconds / 1e6;
    out.iops = static_cast<double>(out.requests) / seconds;
  }
  tally.Fill(out);
}

// The instances' counts summed, the last completion, the most waiting at once.
void AddCounts(ReplayResult& sum, const ReplayResult& one) {
  sum.reads += one.reads;
  sum.writes += one.writes;
  sum.bytes += one.bytes;
  sum.wrapped += one.wrapped;
  sum.realigned += one.realigned;
  sum.skipped_writes += one.skipped_writes;
  sum.other_devices += one.other_devices;
  sum.devices_seen = std::max(sum.devices_seen, one.devices_seen);
  sum.end_ns = std::max(sum.end_ns, one.end_ns);
  sum.max_waiting = std::max(sum.max_waiting, one.max_waiting);
}

// Every target's listener while the replays run.
class ListenerScopes {
 public:
  ListenerScopes(const std::vector<ReplayInstance>& instances, std::vector<std::unique_ptr<Replayer>>& replayers) {
    for (size_t i = 0; i < instances.size(); ++i) scopes_.emplace_back(*instances[i].target, replayers[i].get());
  }

 private:
  std::deque<ScopedListener<ReplayTarget, ReplayTargetListener>> scopes_;
};

}  // namespace

ReplayGroupResult ReplayTraces(std::vector<ReplayInstance>& instances, Simulation& sim, const ReplayOptions& options) {
  CheckOptions(options);
  if (sim.now() != 0) throw std::logic_error("internal error: replay needs a fresh simulation");
  if (instances.empty()) throw std::logic_error("internal error: replay of no instance");
  const size_t n = instances.size();
  ReplayGroupResult out;
  out.instances.resize(n);
  const int64_t share = n == 1 ? options.exact_sample_limit
                               : std::max<int64_t>(1, options.exact_sample_limit / static_cast<int64_t>(n));
  std::deque<Tally> tallies;
  for (size_t i = 0; i < n; ++i) tallies.emplace_back(share);
  std::optional<Tally> pooled;
  if (n > 1) pooled.emplace(options.exact_sample_limit);
  std::vector<std::unique_ptr<Replayer>> replayers;
  for (size_t i = 0; i < n; ++i) {
    replayers.push_back(std::make_unique<Replayer>(instances[i], static_cast<int>(i), sim, options,
                                                   out.instances[i], tallies[i], pooled ? &*pooled : nullptr));
  }
  const auto all_finished = [&] {
    return std::all_of(replayers.begin(), replayers.end(), [](const auto& r) { return r->finished(); });
  };
  double wall_seconds = 0;
  {
    ListenerScopes scopes(instances, replayers);
    const auto wall_start = std::chrono::steady_clock::now();
    for (auto& r : replayers) r->Schedule();
    // Stepped rather than run dry: a pool's L2ARC feed keeps its own timer.
    while (!all_finished() && sim.Step()) {
    }
    wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  }
  for (size_t i = 0; i < n; ++i) {
    const ReplayResult& r = out.instances[i];
    if (replayers[i]->admitted() > 0) continue;
    std::string why;
    if (r.other_devices > 0) why += ", " + std::to_string(r.other_devices) + " of other devices passed over";
    if (r.skipped_writes > 0) why += ", " + std::to_string(r.skipped_writes) + " writes passed over";
    throw InputError(instances[i].trace->path() + ": the trace holds no requests" +
                     (why.empty() ? "" : " to replay" + why));
  }
  if (!all_finished()) {
    const auto stuck = std::find_if(replayers.begin(), replayers.end(), [](const auto& r) { return !r->finished(); });
    throw std::logic_error("internal error: replay: " + instances[static_cast<size_t>(stuck - replayers.begin())]
                           .target->name() + " completed " + std::to_string((*stuck)->completed()) + " of " +
                           std::to_string((*stuck)->admitted()) + " requests");
  }
  int64_t requests = 0;
  for (size_t i = 0; i < n; ++i) {
    instances[i].target->Finish(sim.now());
    ReplayResult& r = out.instances[i];
    r.wall_seconds = wall_seconds;
    r.start_ns = instances[i].start_ns;
    Conclude(r, replayers[i]->admitted(), tallies[i]);
    requests += r.requests;
  }
  if (!pooled) {
    out.pooled = out.instances[0];
    return out;
  }
  for (const ReplayResult& r : out.instances) AddCounts(out.pooled, r);
  out.pooled.wall_seconds = wall_seconds;
  Conclude(out.pooled, requests, *pooled);
  return out;
}

ReplayResult ReplayTrace(TraceReader& trace, ReplayTarget& target, Simulation& sim, const ReplayOptions& options,
                         const ReplayRequestCallback& on_request) {
  std::vector<ReplayInstance> one = {ReplayInstance{&trace, &target, 0, on_request}};
  return std::move(ReplayTraces(one, sim, options).instances[0]);
}

std::unique_ptr<ReplayTarget> MakeDriveTarget(Device& dev) { return std::make_unique<DeviceTarget>(dev); }

ReplayResult ReplayTrace(TraceReader& trace, Device& dev, Simulation& sim, const ReplayOptions& options,
                         const ReplayRequestCallback& on_request) {
  if (dev.in_device() != 0) throw std::logic_error("internal error: replay needs a fresh device");
  DeviceTarget target(dev);
  ReplayResult out = ReplayTrace(trace, target, sim, options, on_request);
  sim.CheckClock();  // the replay steps the loop itself
  CheckDeviceAccounting(dev, sim.now());
  return out;
}

}  // namespace ziosim
