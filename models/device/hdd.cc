#include "models/device/hdd.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/device/disksim_positioning_order.h"
#include "models/device/disksim_priority_order.h"
#include "models/device/disksim_queue_order.h"
#include "models/device/hdd_cache.h"
#include "models/device/hdd_map.h"
#include "models/device/hdd_mechanism.h"
#include "sim/core/time.h"

namespace ziosim {

namespace {

constexpr uint32_t kCompleteEvent = 1;
constexpr uint32_t kOutOfTurnDoneEvent = 2;  // arg: the command's slot in Impl::out_of_turn_
constexpr double kMsPerPs = 1e-9;

int64_t Ps(SimTime ns) { return ns * kPsPerNs; }
SimTime CeilNs(int64_t ps) { return (ps + kPsPerNs - 1) / kPsPerNs; }
SimTime RoundNs(int64_t ps) { return (ps + kPsPerNs / 2) / kPsPerNs; }
int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// One stretch of a media access on one track: its first sector starts passing
// under the head at `start_ps`; `blocks` wanted sectors follow, spread over
// `span` physical sectors (slips included) of `sector_ps` each.
struct MediaRun {
  int64_t start_ps;
  int64_t blocks;
  int64_t span;
  int64_t sector_ps;
  int64_t first_ready_ps() const { return start_ps + sector_ps; }
  int64_t end_ps() const { return start_ps + span * sector_ps; }
};

// Where DiskSim's queue puts a command starting at `lbn`: cylinder and surface 0, as
// DiskSim 4.0 maps for its queue (disksim_queue_order.h).
DisksimQueueOrder::Key DisksimKey(int64_t lbn) { return DisksimQueueOrder::Key{0, 0, lbn}; }

// The drive's queue: commands in arrival order. A command stays in its slot
// while it waits and only the order of slot numbers is kept, so that taking one
// from the middle (SPTF) moves a few 4-byte numbers, not the commands.
template <typename Command>
class ArrivalQueue {
 public:
  void reserve(size_t n) {
    slots_.reserve(n);
    order_.reserve(n);
    free_.reserve(n);
  }
  size_t size() const { return order_.size(); }
  bool empty() const { return order_.empty(); }
  // The i-th command in arrival order.
  Command& operator[](size_t i) { return slots_[order_[i]]; }
  const Command& operator[](size_t i) const { return slots_[order_[i]]; }
  // Adds a command at the end and returns its slot, to be filled in place.
  Command& Append() {
    if (free_.empty()) {
      order_.push_back(static_cast<uint32_t>(slots_.size()));
      return slots_.emplace_back();
    }
    order_.push_back(free_.back());
    free_.pop_back();
    return slots_[order_.back()];
  }
  // Removes the i-th command and returns it.
  Command Take(size_t i) {
    const uint32_t slot = order_[i];
    order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(i));
    free_.push_back(slot);
    return slots_[slot];
  }

 private:
  std::vector<Command> slots_;
  std::vector<uint32_t> order_;  // slot numbers, in arrival order
  std::vector<uint32_t> free_;   // slots not in use
};

// When the drive holds its bus for the command in service: the spans from each
// connection (to take the command, send data or the completion) to its disconnection.
// A command the host sends meanwhile reaches the drive only once the bus is let go
// (HddInterface::commands_wait_for_bus). Kept only when `enabled` (a drive that can
// have a command sent while it serves another, on such a bus); capacity is kept from
// command to command.
class BusOccupancy {
 public:
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  void Enable(size_t capacity) {
    enabled_ = true;
    spans_.reserve(capacity);
  }
  bool enabled() const { return enabled_; }
  void Clear() {
    if (enabled_) [[unlikely]] {
      spans_.clear();
      since_ = kNever;
    }
  }
  // The drive takes the bus at `t` (if it has not already).
  void Connect(int64_t t) {
    if (enabled_ && since_ == kNever) [[unlikely]] since_ = t;
  }
  // The drive lets the bus go at `t` (if it holds it).
  void Disconnect(int64_t t) {
    if (since_ != kNever) [[unlikely]] Close(t);
  }
  // Where the record stands, to go back to (Restore) when the drive's later use of the
  // bus is worked out again.
  struct Mark {
    size_t spans;
    int64_t since;
  };
  Mark mark() const { return Mark{spans_.size(), since_}; }
  void Restore(const Mark& m) {
    spans_.resize(m.spans);
    since_ = m.since;
  }
  // The drive's first disconnection at or after `t` (kNever if none is kept): where
  // DiskSim's drive looks for waiting commands to serve out of turn.
  int64_t NextReleasePs(int64_t t) const {
    int64_t next = kNever;
    for (const Span& s : spans_) {
      if (s.to >= t) next = std::min(next, s.to);
    }
    return next;
  }
  // When a command sent at `t` reaches the drive: at once if no span was kept. One
  // that waited for the host's earlier use of the bus until `t` (`host_first`) has it
  // before a connection of the drive's starting then.
  int64_t DeliveredPs(int64_t t, bool host_first = false) const {
    for (const Span& s : spans_) {
      if ((t > s.from || (t == s.from && !host_first)) && t < s.to) return s.to;
    }
    return t;
  }

 private:
  struct Span {
    int64_t from;
    int64_t to;
  };
  [[gnu::noinline]] void Close(int64_t t) {
    spans_.push_back({since_, t});
    since_ = kNever;
  }

  bool enabled_ = false;
  std::vector<Span> spans_;
  int64_t since_ = kNever;
};

}  // namespace

// Service logic of one drive. Every command is costed when it reaches the
// head of the queue: the firmware overheads, the arm (seek, head switch,
// settle), the platter (rotational wait from the angle at that instant), the
// media transfer track by track, and the bus. Read-ahead continues after a
// read completes and is advanced lazily: the next command first replays how far
// it got by its arrival, then stops it (the arm is needed elsewhere).
class HddDevice::Impl {
 public:
  explicit Impl(HddDevice& dev)
      : dev_(dev),
        p_(dev.params_),
        geo_(*dev.geometry_),
        mech_(p_.mechanics, geo_, dev.spindle_phase_),
        cache_(p_.cache.segments, p_.cache.segment_blocks, p_.cache.separate_write_segment,
               p_.cache.read_hits_on_write_data) {
    queue_.reserve(static_cast<size_t>(p_.queue_depth));
    if (DisksimQueueOrder::IsDisksimOrdered(dev.policy_)) {
      disksim_order_.emplace(dev.policy_, geo_.total_blocks(), p_.layout.cylinders, p_.queue_depth);
    }
    if (DisksimPositioningOrder::IsPositioningOrdered(dev.policy_)) {
      positioning_order_.emplace(dev.policy_, p_.scheduler, p_.queue_depth);
      last_block_cylinder_ = geo_.Map(0).cylinder;
    }
    if (dev.policy_ == QueuePolicy::kPriVscanLbn) priority_order_.emplace(p_.scheduler, geo_.total_blocks());
    estimates_ = dev.policy_ == QueuePolicy::kSptf || positioning_order_.has_value();
    runs_.reserve(64);
    if (p_.interface.commands_wait_for_bus && p_.queue_depth > 1) {
      bus_.Enable(66);  // a connection a track run at most, the command's and the completion's
      const HddCache& c = p_.cache;
      if (c.sneaky_full_read_hits || c.sneaky_intermediate_read_hits || c.write_prebuffering) {
        out_of_turn_.reserve(static_cast<size_t>(p_.queue_depth));
      }
    }
  }

  struct Pending;
  // Costs `cmd`, its turn come at `t_ps` (the command before completed) and the arm
  // its at `take_ps` (<= t_ps: TakePs); returns its completion time.
  int64_t Serve(const Pending& cmd, int64_t t_ps, int64_t take_ps, HddBreakdown* bd);
  // When a command that arrived at `submitted_ps` may take the arm, the command before
  // it completing at `now_ps`: then, unless the drive preseeks (DiskSim's "Preseeking
  // level"), when that one gave the arm up (arm_release_ps_), or at its own arrival if later.
  int64_t TakePs(int64_t now_ps, int64_t submitted_ps) const {
    if (p_.cache.preseek_level == 0) return now_ps;
    return std::min(now_ps, std::max(arm_release_ps_, submitted_ps));
  }
  // Positioning + rotational wait if `p` were started at `t_ps` (SPTF's key), or
  // a figure of at least `bound` when that is `bound` or more. Brings p's cache
  // segment (seg, seg_version) up to date. REQUIRES: AdvanceReadAhead(t_ps) was called.
  int64_t EstimateAccessPs(Pending& p, int64_t t_ps, int64_t bound) const;
  // What DiskSim's positioning and distance schedulers (disksim_positioning_order.h)
  // cost p: its seek distance, or its positioning in ms from the arm where it is and
  // the platter as at `t_ps`, above `bound_ms` once its seek reaches that.
  // REQUIRES: AdvanceReadAhead(t_ps) was called.
  double DisksimCost(Pending& p, int64_t t_ps, double bound_ms) const;
  double DisksimEstimateMs(Pending& p, int64_t t_ps, double bound_ms) const;
  // DiskSim's estimate of p's seek alone (disk_buffer_estimate_seektime), in ms: the
  // seek, head switch and write settle, a write at least the minimum seek delay.
  double DisksimSeekMs(const Pending& p) const;
  // The cache segment holding p's first block now (-1: none), looked for again only
  // among the segments changed since p last looked; remembered in p.
  int RefreshSegment(Pending& p) const {
    p.seg = cache_.FindAgain(p.req.offset_bytes / 512, p.seg, p.seg_version);
    p.seg_version = cache_.version();
    return p.seg;
  }
  // DiskSim's estimates hold a write to the minimum seek delay at least.
  double WriteFloorMs(bool is_write, double ms) const {
    return is_write ? std::max(ms, static_cast<double>(Ps(p_.interface.min_seek_delay_ns)) * kMsPerPs) : ms;
  }
  // Replays the read-ahead up to `t_ps`: every sector finished by then is in the segment.
  void AdvanceReadAhead(int64_t t_ps);
  // Of the next `blocks` sectors of the read-ahead's track run, `st` each, how many in a
  // row find room in the segment as they start (RoomEndLbn).
  int64_t BlocksWithRoom(int64_t blocks, int64_t st) const;
  // Latest instant a write-back segment's data reach the platter, as far as it is
  // known: a prebuffered write's are written at its turn, not yet known.
  int64_t DirtyUntilPs() const {
    int64_t until = 0;
    for (int i = 0; i < p_.cache.segments; ++i) {
      const int64_t d = cache_.at(i).dirty_until_ps;
      if (d != kHeldForItsTurn) until = std::max(until, d);
    }
    return until;
  }
  // Whether the drive reports a write complete once its data are in the buffer.
  bool WriteBack() const { return p_.cache.enabled && p_.cache.fast_write_level > 0; }
  // Whether command `p` was reported complete before its turn: a prebuffered
  // write-back write, whose turn writes its sectors unseen by the host.
  bool CompletedOutOfTurn(const Pending& p) const { return p.prebuffered && WriteBack(); }
  // A segment's dirty_until_ps while the prebuffered write it holds waits for its turn.
  static constexpr int64_t kHeldForItsTurn = std::numeric_limits<int64_t>::max();

  // A command in the drive's queue. Where its first block lives is found once,
  // at arrival, for its service and, with SPTF, for its access estimates, with
  // the sector's start in a revolution. The cache segment holding that block
  // (seg) is remembered with the cache's version then, for the next estimate and
  // for the command's service to look again from there.
  struct Pending {
    DeviceRequest req;
    SimTime submitted;
    // When the command reached the drive: as it came, or once the command in service
    // let go of the bus (BusOccupancy). DiskSim's queue and ages start then.
    int64_t delivered_ps = 0;
    bool after_write = false;    // the last command the drive completed before this one came was a write
    bool waited = false;         // it came while the drive had another command (SendWhileBusy)
    // A write whose data came out of turn (PrebufferPs): into buffered_seg, block k
    // in by data_in_ps + (k + 1) x the bus's block time. (Fields placed to keep the
    // command small.)
    bool prebuffered = false;
    PhysicalAddress first{};
    int64_t first_start_ps = 0;  // estimates: the first block's sector start in a revolution
    int seg = -1;
    int buffered_seg = -1;
    uint64_t seg_version = HddSegmentCache::kNever;
    int64_t data_in_ps = 0;
  };
  // Makes `p` the command `req` arriving at `t`, ready for its service (and, on a
  // drive that estimates positioning, for the estimates). Filled in place, where it
  // will be served or wait: a command built elsewhere and copied there at once would
  // be read with wide loads right after the narrow stores that built it, which stalls.
  [[gnu::always_inline]] void Arrive(const DeviceRequest& req, SimTime t, Pending& p) const {
    p.req = req;
    p.submitted = t;
    p.delivered_ps = Ps(t);
    p.after_write = last_done_was_write_;
    p.waited = false;
    p.first = geo_.Map(req.offset_bytes / 512);
    p.first_start_ps = estimates_ ? mech_.SectorStartPs(p.first) : 0;
    p.seg = -1;
    p.seg_version = HddSegmentCache::kNever;
    p.prebuffered = false;
  }
  // A command `p` sent while the drive has another (in service, or waiting as the one
  // before completes), on a bus the host and the drive take turns on (bus_ enabled):
  // it reaches the drive once the bus is free, of the drive and of the host's earlier
  // commands, and holds it for its overhead and its disconnect (DiskSim's
  // disk_read_arrive and disk_write_arrive, the DISCONNECT way), until host_bus_until_ps_.
  void SendWhileBusy(Pending& p);
  // A read sent at `t`, while the drive has another command, that a DiskSim drive
  // sends at once from its buffer ("Allow sneaky full read hits", disk_read_arrive):
  // whole in a segment the command in service does not hold, reaching the drive
  // before that one completes. Takes the bus for it (host_spans_, Replan) and returns
  // when it completes, filling `bd`; -1 if it is not one.
  int64_t SneakyHitPs(const DeviceRequest& req, SimTime t, HddBreakdown* bd);
  // A read `p` waiting in the queue at `t` that a DiskSim drive sends from its buffer out of
  // turn ("Allow sneaky intermediate read hits", disk_select_bus_request): whole in a
  // segment the command in service does not hold, it reconnects when the bus is free
  // (once its own command has disconnected, or as a command completes), before the
  // command in service completes. Takes the bus as SneakyHitPs does and returns when
  // it completes, filling `bd`; -1 if it is not one.
  int64_t IntermediateHitPs(const Pending& p, SimTime t, HddBreakdown* bd);
  // The segment holding all of `req` that the drive may send out of turn (one the
  // command in service does not hold), as the drive last brought the buffer up to
  // date: a read-ahead's later sectors are not counted (replaying it would run ahead
  // of the next command's start); -1 if none.
  int OutOfTurnHitSegment(const DeviceRequest& req) const;
  // A write `p` waiting in the queue at `t` (sent then, or disconnected since) whose
  // data a DiskSim drive takes at once into a free write segment ("Allow write
  // prebuffering": disk_write_arrive's READY_TO_TRANSFER way, or
  // disk_select_bus_request's value -1 at a completion), the command in service's bus
  // use held back. Marks `p` prebuffered. Returns when it completes, with write-back
  // (filling `bd`); kAtItsTurn without (its completion comes after its sectors are
  // written); kNotTaken if the drive does not take it now.
  int64_t PrebufferPs(Pending& p, SimTime t, HddBreakdown* bd);
  static constexpr int64_t kNotTaken = -1;
  static constexpr int64_t kAtItsTurn = -2;
  // The segment a write coming at `t` while the drive is busy may take (DiskSim's
  // disk_buffer_select_write_segment): while fewer than 'Maximum number of write
  // segments' hold data not yet on the platter, one that is neither dirty, nor held
  // by the command in service, nor read ahead into; -1 if none.
  int PrebufferSegment(int64_t t) const;
  // PrebufferSegment, or else the segment of a read miss in service that has not taken
  // it yet (seg_taken_ps_ after `t`): that read moves to one clean by then, as DiskSim's
  // would take one then (MoveServiceSegment); -1 if none.
  int TakePrebufferSegment(int64_t t);
  void MoveServiceSegment(int to);
  // A read of `lbn` about to start at `t` that will miss takes its segment now: the one
  // ServeRead will choose is emptied (DiskSim's next command takes its segment as the
  // command before completes, before the host hears of it and sends another).
  void ClaimMissSegment(int64_t lbn, int64_t t) {
    if (cache_.Find(lbn) >= 0 || JoinsReadAhead(-1, lbn)) return;
    const int victim = CleanVictim(/*for_write=*/false, t);
    if (!(ra_.active && victim == ra_.segment) && victim != seg_in_use_) cache_.Empty(victim);
  }
  // When, from `t` on, fewer than 'Maximum number of write segments' segments will
  // hold unwritten data, as the destages under way end (kNever if only a prebuffered
  // write's turn can free one).
  int64_t WriteSegmentFreePs(int64_t t);
  std::vector<int64_t> destage_ends_;  // WriteSegmentFreePs's scratch
  // Where new data go at `t` (HddSegmentCache::Victim), passing over the segments whose
  // write data are not on the platter yet (DiskSim reuses a segment once clean),
  // unless all are such.
  [[gnu::always_inline]] int CleanVictim(bool for_write, int64_t t) const {
    const int victim = cache_.Victim(for_write);
    if (cache_.at(victim).dirty_until_ps <= t) [[likely]] return victim;
    const int clean = CleanVictimOtherThan(for_write, t);
    return clean >= 0 ? clean : victim;
  }
  [[gnu::noinline]] int CleanVictimOtherThan(bool for_write, int64_t t) const {
    return cache_.VictimWhere(for_write, [&](int i) { return cache_.at(i).dirty_until_ps <= t; });
  }
  // How many segments hold write data not yet on the platter at `t`.
  int DirtySegments(int64_t t) const {
    int dirty = 0;
    for (int i = 0; i < p_.cache.segments; ++i) dirty += cache_.at(i).dirty_until_ps > t ? 1 : 0;
    return dirty;
  }
  // Which waiting command takes the arm at `t` when the scheduler picked the `pick`-th:
  // a write that finds every write segment holding unwritten data while a prebuffered
  // write waits recycles that one's segment, whose sectors are written first (DiskSim's
  // disk_get_effectivehda, disk_buffer_recyclable_segment).
  size_t DestageFirst(size_t pick, int64_t t) const;
  // A command served out of turn holds the bus from `at` to `until`: the host's commands
  // and the reconnections of the command in service wait (host_spans_, Replan).
  void HoldBusOutOfTurn(int64_t at, int64_t until);
  // The breakdown of a command served out of turn: where its first block lies, `outcome`.
  void OutOfTurnBreakdown(int64_t lbn, HddBreakdown::CacheOutcome outcome, HddBreakdown* bd) const;
  // Sends the hit of `req` in `seg` out of turn, holding the bus from `at` to `done`
  // (host_spans_ hold back the command in service); returns `done`.
  int64_t SendOutOfTurn(const DeviceRequest& req, int seg, int64_t at, int64_t done, HddBreakdown* bd);
  // The reads sent that way, completing out of turn; slots reused.
  struct OutOfTurn {
    DeviceRequest req;
    SimTime submitted = 0;
    HddBreakdown bd;
    int64_t done_ps = 0;
    bool in_flight = false;
  };
  std::vector<OutOfTurn> out_of_turn_;
  // Whether a command sent out of turn still has the bus at `t`: the drive picks the next
  // as it completes.
  bool OutOfTurnInFlight(int64_t t) const {
    for (const OutOfTurn& o : out_of_turn_) {
      if (o.in_flight && o.done_ps > t) return true;
    }
    return false;
  }
  size_t AddOutOfTurn(const DeviceRequest& req, SimTime t, const HddBreakdown& bd, int64_t done_ps);
  // Whether the last completion the drive sent by `t` was a write's (DiskSim's
  // lastflags, which choose the "after write" overheads): of the commands completed,
  // the one in service and those completing out of turn.
  bool LastDoneWasWriteAt(int64_t t) const;
  HddBreakdown current_bd_;  // the command in service's, made last_breakdown() at its completion
  // Serves current_ now and schedules its completion. REQUIRES: the drive is idle.
  void Start();
  // Decides, as of an arm taken at `t_ps`, what the open read's release (CompleteRead)
  // did to its segment, when that is known by then.
  void SettleRelease(int64_t t_ps) {
    if (open_release_.seg >= 0) SettleOpenRelease(t_ps);
  }
  // Whether the drive orders its queue as one of DiskSim's schedulers does.
  bool HasDisksimScheduler() const {
    return disksim_order_.has_value() || positioning_order_.has_value() || priority_order_.has_value();
  }
  // Which of the first `there` waiting commands (>= 1; those there when the arm was
  // released) the drive's DiskSim scheduler starts at `now_ps` (as the command before
  // completes, or gives the arm up with preseeking).
  size_t PickAsDisksim(size_t there, int64_t now_ps);
  // Which of the first `there` waiting commands SPTF starts at `now_ps`: the one the arm
  // and platter reach soonest.
  size_t PickSptf(size_t there, int64_t now_ps);
  ArrivalQueue<Pending> queue_;
  std::optional<DisksimQueueOrder> disksim_order_;  // DiskSim's address-ordered schedulers' state
  std::optional<DisksimPositioningOrder> positioning_order_;  // DiskSim's *_opt and SDF schedulers
  int last_block_cylinder_ = 0;  // SDF_APPROX: of the last block of the last command started
  std::optional<DisksimPriorityOrder> priority_order_;  // DiskSim's PRI_VSCAN_LBN
  bool estimates_ = false;  // the order estimates positioning (sptf, DiskSim's *_opt and SDF)
  // When the current command's media access ended (its start if it had none): the
  // arm is then free for the next command, which DiskSim's disk takes from those that
  // had reached it by then.
  int64_t media_done_ps_ = 0;
  // When the last sector passed under the head by `t_ps`, with the read-ahead replayed
  // to then: where DiskSim's disk last recorded its arm and platter (mech_state and
  // currtime, which only its sector and seek events move). REQUIRES: AdvanceReadAhead(t_ps).
  int64_t LastSectorPs(int64_t t_ps) const {
    if (!ra_.active) return std::max(ra_.done_ps, media_done_ps_);
    if (ra_.next_start_ps <= t_ps) return ra_.next_start_ps;
    // Waiting for room, the head passes sectors: the last ended on a sector boundary.
    if (ra_.paused) return ra_.next_start_ps - CeilDiv(ra_.next_start_ps - t_ps, ra_.sector_ps) * ra_.sector_ps;
    // Seeking or waiting for the sector: the last was before the positioning.
    return ra_.positioned_ps;
  }
  // With preseeking, when the command last served gave the arm up for the next
  // (DiskSim's disk_release_hda): once its media work was done (level 2), or that and
  // its completion sent (level 1). Read by TakePs.
  int64_t arm_release_ps_ = 0;
  BusOccupancy bus_;      // when the command in service holds the bus
  // The drive's next use of the bus waits for the host's commands sent before it
  // (SendWhileBusy): DiskSim's bus goes to the host, which waited, first.
  int64_t host_bus_until_ps_ = 0;
  // How the command in service uses the bus after its media work starts, kept so that
  // a host command taking the bus meanwhile (SendWhileBusy) can push it back (Replan):
  // a read's data (BusPipeline's inputs), or a write-through write's completion.
  struct BusPlan {
    enum class Kind { kNone, kReadData, kWriteCompletion } kind = Kind::kNone;
    int64_t bus_free = 0;  // kReadData: BusPipeline's inputs
    int64_t b = 0;
    int64_t watermark = 0;
    bool sending = false;
    int64_t buffered = 0;
    int64_t media_blocks = 0;
    int after = 0;              // the command completed before: its disconnect overheads
    int64_t connect_ps = 0;     // kWriteCompletion: when it would reconnect
    int64_t tail_ps = 0;        // from the last block sent (or the reconnection) to done
    int seg = -1;               // a read's segment (CompleteRead)
    BusOccupancy::Mark mark{};  // the bus record before this use
  };
  // The host's commands that took the bus while the command in service was
  // disconnected, and what that one does with the bus after its media work.
  struct HostSpan {
    int64_t from;
    int64_t to;
  };
  std::vector<HostSpan> host_spans_;
  BusPlan plan_;
  int64_t done_ps_ = 0;  // when the command in service completes
  // When the drive may first take the bus for the command whose turn comes at `t`.
  int64_t BusTurnPs(int64_t t) const { return std::max(t, host_bus_until_ps_); }
  // When a command the host sends at `sent` has the bus: once the drive and the host's
  // earlier commands let it go; one that waited for those has it before the drive's
  // next connection (DiskSim's bus goes to the one that waited).
  int64_t HostTurnPs(int64_t sent) const {
    return sent < host_bus_until_ps_ ? bus_.DeliveredPs(host_bus_until_ps_, /*host_first=*/true)
                                     : bus_.DeliveredPs(sent);
  }
  // When the drive may reconnect from `t` for a waiting command it serves out of turn:
  // once the host's commands and the command in service have let the bus go.
  int64_t DriveTurnPs(int64_t t) const { return bus_.DeliveredPs(std::max(t, host_bus_until_ps_)); }
  int seg_in_use_ = -1;  // the cache segment it holds until it completes
  // A read miss in service waiting for the arm (a destage before it) takes its segment in
  // DiskSim only when it gets the arm, at seg_taken_ps_ (0: it has taken it).
  int64_t seg_taken_ps_ = 0;
  bool busy_ = false;
  bool last_done_was_write_ = false;
  Pending current_{};

 private:
  struct ReadAhead {
    bool active = false;
    int segment = -1;
    int64_t next_lbn = 0;       // next LBN to come under the head
    int64_t target_lbn = 0;     // read-ahead stops before this LBN
    int64_t min_lbn = 0;        // no command stops it before this LBN (minimum read-ahead)
    int64_t seek_done_ps = 0;   // positioning to next_lbn's track ends
    int64_t next_start_ps = 0;  // next_lbn's sector starts passing under the head
    int64_t done_ps = 0;        // once inactive: when its last sector ended
    int64_t positioned_ps = 0;  // positioning to next_lbn started (the sector before ended)
    // next_lbn's sector passed without room in the segment (Intake): it comes round
    // again at next_start_ps, the head passing the sectors between, sector_ps each.
    bool paused = false;
    int64_t sector_ps = 0;
  };
  // The host's intake of the data of the read in service (DiskSim's outblkno): until
  // that read's completion is sent, a read-ahead into its segment may hold no more
  // than a segment's worth of blocks from the first the host has not taken
  // (disk_buffer_block_available), and so reads on only as the host takes them. A
  // sector passing without room is read a revolution later.
  struct Intake {
    int seg = -1;           // the read's segment; -1: no read limits the read-ahead
    int64_t first_lbn = 0;  // the read's first block
    int64_t until_ps = 0;   // its completion is sent then, and the limit lifted
    int64_t block_ps = 0;   // the bus's time a block
    // Runs of blocks sent back to back: when the last of each was sent, and how many
    // of the read's blocks were sent by then; the head sent at once first.
    std::pair<int64_t, int64_t> head{0, 0};
    std::vector<std::pair<int64_t, int64_t>> runs;
    // How many of the read's blocks the host has taken by `t`.
    int64_t TakenBy(int64_t t) const;
  };
  Intake intake_;
  // The first LBN a read-ahead into segment `seg` may not read at `t` (Intake).
  int64_t RoomEndLbn(int seg, int64_t t) const {
    if (seg != intake_.seg || t >= intake_.until_ps) return std::numeric_limits<int64_t>::max();
    return intake_.first_lbn + p_.cache.segment_blocks + intake_.TakenBy(t);
  }
  // Records the read from `lbn` in segment `seg` whose data were sent (intake_.head,
  // then BusPipeline's runs) by `sent_ps`, when its completion is sent.
  void KeepIntake(int seg, int64_t lbn, int64_t sent_ps) {
    intake_.seg = seg;
    intake_.first_lbn = lbn;
    intake_.until_ps = sent_ps;
    intake_.block_ps = Ps(p_.interface.bus_read_block_ns);
  }

  int64_t ServeRead(const Pending& cmd, int64_t lbn, int64_t n, int64_t t, int64_t take, HddBreakdown* bd);
  int64_t ServeWrite(const Pending& cmd, int64_t lbn, int64_t n, int64_t t, HddBreakdown* bd);
  int64_t ServePrebufferedWrite(const Pending& cmd, int64_t lbn, int64_t n, int64_t t, HddBreakdown* bd);
  // Writes `n` sectors from `lbn` with the arm free at `arm_start`, their data in from
  // `data_start` (block k by data_start + (k + 1) x the bus's block time) and none
  // written before `gate` (0: no gate); the arm's turn came at `turn`. Returns when the
  // last sector is written.
  int64_t WriteMedia(int64_t lbn, int64_t n, int64_t arm_start, int64_t turn, int64_t data_start, int64_t gate,
                     HddBreakdown* bd);
  // A write-through write whose data went until `data_end` (its disconnect after them
  // `disconnect`) and whose sectors are written by `media_end`: reconnects for its
  // completion (reselecting with `reselect`); returns when it completes.
  int64_t WriteThroughCompletion(int64_t data_end, SimTime disconnect, SimTime reselect, int64_t media_end);
  bool ExtraWriteDisconnect(int seg, int64_t lbn, int64_t t) const;
  int64_t ServeWholeHit(const Pending& cmd, int64_t lbn, int64_t n, int64_t t, int64_t take, int seg);
  int64_t HitReadyPs(const Pending& cmd, int64_t t, bool sneaky) const;
  int64_t CompleteRead(int seg, int64_t done_ps);
  void SettleOpenRelease(int64_t t);
  // When the command just served gives the arm up, having completed at `done_ps`
  // (arm_release_ps_).
  int64_t ArmReleasePs(bool is_write, int64_t done_ps) const;
  bool JoinsReadAhead(int seg, int64_t lbn) const;
  int64_t ServeFromReadAhead(const Pending& cmd, int64_t lbn, int64_t n, int64_t t, HddBreakdown* bd);

  // Stops the read-ahead for a command that needs the arm at `t`; returns when the arm is free.
  int64_t StopReadAhead(int64_t t) {
    AdvanceReadAhead(t);
    return ra_.active ? StopActiveReadAhead(t) : t;
  }
  int64_t StopActiveReadAhead(int64_t t);
  void StartReadAhead(int seg, int64_t held_from, int64_t req_lbn, int64_t req_end, int64_t t);
  void PositionReadAhead(int64_t t);
  void ExtendReadAhead(int seg, int64_t req_lbn, int64_t req_end, int64_t t);
  int64_t ReadAheadTarget(int64_t held_from, int64_t req_lbn, int64_t req_end) const;
  int64_t MaxReadAheadEnd(int64_t req_lbn, int64_t req_end) const;
  // Where a read-ahead after a request ending at `req_end` may first be stopped.
  int64_t MinReadAheadEnd(int64_t req_end) const {
    return std::min<int64_t>(req_end + p_.cache.min_read_ahead_blocks, geo_.total_blocks());
  }
  void ForgetSentData(int seg, int64_t req_end);

  // Which tracks of an access are read or written with zero latency.
  enum class ZeroLatency { kNone, kFirstTrack, kEveryTrack };
  ZeroLatency ZeroLatencyFor(bool is_write) const;
  int64_t FreeBlocksBefore(int64_t lbn) const;

  int64_t ArmStart(int64_t t, int64_t cmd_done);
  int64_t WalkMedia(int64_t lbn, int64_t n, int64_t t, bool is_write, HddBreakdown* bd,
                    bool positioned = false, ZeroLatency zero_latency = ZeroLatency::kNone);
  bool SplitForZeroLatency(const TrackRun& run, int64_t land_ps, int64_t start_ps, int64_t st);
  int64_t ZeroLatencyHead(const TrackRun& run, int64_t land_ps, int64_t start_ps, int64_t st) const;
  int64_t WriteSectors(int64_t data_start_ps, int64_t bus_ps, int64_t gate_ps);
  int64_t BusPipeline(int64_t bus_free, int64_t b, int64_t watermark, bool sending, int64_t buffered,
                      int64_t media_blocks, int after);
  // Sends a read's data (BusPipeline, the disconnect overheads after the command
  // before), keeping how where the host's commands may push it back later (Replan):
  // its `cached` head, sent by `bus_free` if `sending`, else waiting in the buffer, then
  // `media_blocks` from the media.
  int64_t SendReadData(int64_t bus_free, int64_t b, int64_t watermark, bool sending, int64_t cached,
                       int64_t media_blocks, int seg) {
    intake_.head = sending ? std::pair{bus_free, cached} : std::pair<int64_t, int64_t>{0, 0};
    const int64_t buffered = sending ? 0 : cached;
    if (bus_.enabled()) {
      plan_ = BusPlan{BusPlan::Kind::kReadData, bus_free, b, watermark, sending, buffered, media_blocks, prev(), 0,
                      Ps(p_.interface.read_completion_ns), seg, bus_.mark()};
    }
    return BusPipeline(bus_free, b, watermark, sending, buffered, media_blocks, prev());
  }
  // The first instant from `t` on when no host command holds the bus (host_spans_).
  int64_t HostFreePs(int64_t t) const;
  // Works the plan out again around the host's commands; moves done_ps_ (later only).
  void Replan();
  // A disconnected drive's way back to sending data: it wins the bus, reselects the
  // host and prepares the data.
  int64_t ReconnectPs() const {
    const HddInterface& io = p_.interface;
    return Ps(io.bus_arbitration_ns) + Ps(io.first_reselect_ns) + Ps(io.data_prep_ns);
  }
  void DropLeadingBlocks(int64_t blocks);
  int64_t ReadWatermark(int64_t n) const;

  int prev() const { return prev_was_write_ ? 1 : 0; }

  HddDevice& dev_;
  const HddParams& p_;
  const HddMap& geo_;
  HddMechanism mech_;
  HddSegmentCache cache_;
  ReadAhead ra_;
  std::vector<MediaRun> runs_;  // scratch for the current access; capacity reused
  int64_t land_ps_ = 0;         // when the head reached the access's first track
  int64_t arm_free_ps_ = 0;     // earlier mechanical work (destage) holds the arm until then
  bool prev_was_write_ = false;
  int64_t last_write_end_lbn_ = -1;
  // With preseeking, a read whose segment DiskSim leaves empty if its arm (its own
  // media work and the read-ahead after it) is given up before it completes at
  // `done_ps` (CompleteRead); seg -1: none. Known once that read-ahead ends or is
  // stopped, which with commands queued may be before or after the completion.
  struct OpenRelease {
    int seg = -1;
    int64_t done_ps = 0;
  };
  OpenRelease open_release_;
};

int64_t HddDevice::Impl::Serve(const Pending& cmd, int64_t t, int64_t take, HddBreakdown* bd) {
  const DeviceRequest& req = cmd.req;
  *bd = HddBreakdown{};
  SettleRelease(take);
  // The command wins the disk's bus first (a prebuffered write, whose data are in,
  // needs none); an arm given up early (preseeking) is taken without it.
  if (!cmd.prebuffered) {
    if (take == t) take += Ps(p_.interface.bus_arbitration_ns);
    t += Ps(p_.interface.bus_arbitration_ns);
  }
  const int64_t lbn = req.offset_bytes / 512;
  const int64_t n = req.size_bytes / 512;
  const PhysicalAddress& first = cmd.first;
  bd->cylinder = first.cylinder;
  bd->head = first.head;
  bd->sector = first.sector;
  const bool is_write = req.op == IoOp::kWrite;
  const int64_t done = is_write ? ServeWrite(cmd, lbn, n, t, bd) : ServeRead(cmd, lbn, n, t, take, bd);
  prev_was_write_ = is_write;
  return done;
}

int64_t HddDevice::Impl::SneakyHitPs(const DeviceRequest& req, SimTime t, HddBreakdown* bd) {
  if (!p_.cache.sneaky_full_read_hits || !p_.cache.enabled || !bus_.enabled() || req.op != IoOp::kRead) return -1;
  const HddInterface& io = p_.interface;
  const int64_t at = HostTurnPs(Ps(t));
  if (busy_ && at >= done_ps_) return -1;  // it comes as the command in service completes
  const int seg = OutOfTurnHitSegment(req);
  if (seg < 0) return -1;
  const int after = LastDoneWasWriteAt(at) ? 1 : 0;
  const int64_t done = at + Ps(io.per_request_ns) + Ps(io.read_hit_ns[after]) + Ps(io.data_prep_ns) +
                       req.size_bytes / 512 * Ps(io.bus_read_block_ns) + Ps(io.read_completion_ns);
  return SendOutOfTurn(req, seg, at, done, bd);
}

int64_t HddDevice::Impl::IntermediateHitPs(const Pending& p, SimTime t, HddBreakdown* bd) {
  if (!p_.cache.sneaky_intermediate_read_hits || !p_.cache.enabled || !busy_ || !p.waited ||
      p.req.op != IoOp::kRead) {
    return -1;
  }
  const HddInterface& io = p_.interface;
  // The bus is free once the host's commands (this one's own among them) have let it
  // go and the command in service does not hold it.
  const int64_t at = DriveTurnPs(Ps(t));
  if (at >= done_ps_) return -1;
  const int seg = OutOfTurnHitSegment(p.req);
  if (seg < 0) return -1;
  // A reconnection (disk_check_bus): no command or hit overhead, the first reselection's.
  const int64_t done = at + Ps(io.bus_arbitration_ns) + Ps(io.first_reselect_ns) + Ps(io.data_prep_ns) +
                       p.req.size_bytes / 512 * Ps(io.bus_read_block_ns) + Ps(io.read_completion_ns);
  return SendOutOfTurn(p.req, seg, at, done, bd);
}

int64_t HddDevice::Impl::PrebufferPs(Pending& p, SimTime t, HddBreakdown* bd) {
  if (!p_.cache.write_prebuffering || !bus_.enabled() || !busy_ || p.prebuffered || p.req.op != IoOp::kWrite) {
    return kNotTaken;
  }
  const HddInterface& io = p_.interface;
  // Sent now, it has the bus as the host's; waiting, as the drive's (its reconnection).
  int64_t at = p.waited ? DriveTurnPs(Ps(t)) : HostTurnPs(Ps(t));
  if (at >= done_ps_) return kNotTaken;  // it comes as the command in service completes
  int seg = TakePrebufferSegment(at);
  if (seg < 0) {
    // A write segment may free as a destage ends: the drive looks again as it next
    // lets the bus go (disk_disconnect -> disk_check_bus).
    const int64_t free_ps = WriteSegmentFreePs(at);
    if (free_ps >= done_ps_) return kNotTaken;
    at = DriveTurnPs(bus_.NextReleasePs(free_ps));
    if (at >= done_ps_) return kNotTaken;
    seg = TakePrebufferSegment(at);
    if (seg < 0) return kNotTaken;
  }
  const bool write_back = WriteBack();
  // Sent now, it takes its command overhead; waiting, disconnected since it took it,
  // it reconnects (disk_check_bus).
  const int after = LastDoneWasWriteAt(at) ? 1 : 0;
  const int64_t overhead =
      p.waited ? Ps(io.first_reselect_ns)
               : Ps(io.per_request_ns) + Ps(write_back ? io.write_hit_ns[after] : io.write_miss_ns[after]);
  if (!p.waited) {
    p.waited = true;
    p.delivered_ps = at;
  }
  const int64_t lbn = p.req.offset_bytes / 512;
  const int64_t n = p.req.size_bytes / 512;
  p.prebuffered = true;
  p.buffered_seg = seg;
  p.data_in_ps = at + Ps(io.bus_arbitration_ns) + overhead + Ps(io.data_prep_ns);
  const int64_t data_end = p.data_in_ps + n * Ps(io.bus_write_block_ns);
  // With write-back its completion follows its data; without, it disconnects until its turn.
  const int64_t bus_free = data_end + Ps(write_back ? io.write_completion_ns : io.write_disconnect_ns);
  cache_.Invalidate(lbn, lbn + n, seg);
  cache_.Fill(seg, lbn, lbn + n, /*is_write=*/true);
  cache_.set_dirty_until(seg, kHeldForItsTurn);
  HoldBusOutOfTurn(at, bus_free);
  if (!write_back) return kAtItsTurn;
  OutOfTurnBreakdown(lbn, HddBreakdown::CacheOutcome::kWriteBuffered, bd);
  return bus_free;
}

size_t HddDevice::Impl::DestageFirst(size_t pick, int64_t t) const {
  const Pending& p = queue_[pick];
  if (p.req.op != IoOp::kWrite || p.prebuffered || DirtySegments(t) < p_.cache.max_write_segments) return pick;
  for (size_t i = 0; i < queue_.size(); ++i) {
    if (queue_[i].prebuffered) return i;
  }
  return pick;
}

int64_t HddDevice::Impl::WriteSegmentFreePs(int64_t t) {
  destage_ends_.clear();
  int held = 0;
  for (int i = 0; i < p_.cache.segments; ++i) {
    const int64_t d = cache_.at(i).dirty_until_ps;
    if (d == kHeldForItsTurn) {
      ++held;
    } else if (d > t) {
      destage_ends_.push_back(d);
    }
  }
  if (held >= p_.cache.max_write_segments) return BusOccupancy::kNever;
  // At most `still` segments may then be dirty besides the held ones.
  const size_t still = static_cast<size_t>(p_.cache.max_write_segments - held - 1);
  if (destage_ends_.size() <= still) return t;
  const auto nth = destage_ends_.end() - static_cast<std::ptrdiff_t>(still) - 1;
  std::nth_element(destage_ends_.begin(), nth, destage_ends_.end());
  return *nth;
}

int HddDevice::Impl::TakePrebufferSegment(int64_t t) {
  if (const int seg = PrebufferSegment(t); seg >= 0 || seg_in_use_ < 0 || t >= seg_taken_ps_) return seg;
  if (DirtySegments(t) >= p_.cache.max_write_segments) return -1;
  const int64_t taken = seg_taken_ps_;
  const int to = cache_.VictimWhere(/*for_write=*/false, [&](int i) {
    return i != seg_in_use_ && cache_.at(i).dirty_until_ps <= taken && !(ra_.active && i == ra_.segment);
  });
  if (to < 0) return -1;
  const int from = seg_in_use_;
  MoveServiceSegment(to);
  return from;
}

void HddDevice::Impl::MoveServiceSegment(int to) {
  const int from = seg_in_use_;
  const HddSegment run = cache_.at(from);
  cache_.Fill(to, run.start, run.end, /*is_write=*/false);
  cache_.Empty(from);
  for (int* seg : {&seg_in_use_, &ra_.segment, &intake_.seg, &plan_.seg, &open_release_.seg}) {
    if (*seg == from) *seg = to;
  }
}

int HddDevice::Impl::PrebufferSegment(int64_t t) const {
  if (DirtySegments(t) >= p_.cache.max_write_segments) return -1;
  return cache_.VictimWhere(/*for_write=*/true, [&](int i) {
    return i != seg_in_use_ && cache_.at(i).dirty_until_ps <= t && !(ra_.active && i == ra_.segment);
  });
}

int HddDevice::Impl::OutOfTurnHitSegment(const DeviceRequest& req) const {
  const int64_t lbn = req.offset_bytes / 512;
  const int64_t n = req.size_bytes / 512;
  const int seg = cache_.Find(lbn);
  if (seg < 0 || (busy_ && seg == seg_in_use_) || cache_.at(seg).end < lbn + n) return -1;
  return seg;
}

int64_t HddDevice::Impl::SendOutOfTurn(const DeviceRequest& req, int seg, int64_t at, int64_t done,
                                       HddBreakdown* bd) {
  const int64_t lbn = req.offset_bytes / 512;
  cache_.Touch(seg);
  ForgetSentData(seg, lbn + req.size_bytes / 512);
  HoldBusOutOfTurn(at, done);
  OutOfTurnBreakdown(lbn, HddBreakdown::CacheOutcome::kWholeHit, bd);
  return done;
}

void HddDevice::Impl::HoldBusOutOfTurn(int64_t at, int64_t until) {
  host_bus_until_ps_ = std::max(host_bus_until_ps_, until);
  if (busy_ && plan_.kind != BusPlan::Kind::kNone) {
    host_spans_.push_back(HostSpan{at, until});
    Replan();
  }
}

void HddDevice::Impl::OutOfTurnBreakdown(int64_t lbn, HddBreakdown::CacheOutcome outcome, HddBreakdown* bd) const {
  const PhysicalAddress first = geo_.Map(lbn);
  *bd = HddBreakdown{};
  bd->cylinder = first.cylinder;
  bd->head = first.head;
  bd->sector = first.sector;
  bd->cache = outcome;
}

size_t HddDevice::Impl::AddOutOfTurn(const DeviceRequest& req, SimTime t, const HddBreakdown& bd,
                                     int64_t done_ps) {
  size_t slot = 0;
  while (slot < out_of_turn_.size() && out_of_turn_[slot].in_flight) ++slot;
  if (slot == out_of_turn_.size()) out_of_turn_.emplace_back();
  out_of_turn_[slot] = OutOfTurn{req, t, bd, done_ps, true};
  return slot;
}

bool HddDevice::Impl::LastDoneWasWriteAt(int64_t t) const {
  int64_t latest = -1;
  bool write = last_done_was_write_;
  // A prebuffered write-back write in service completed already, out of turn.
  if (busy_ && done_ps_ <= t && !CompletedOutOfTurn(current_)) {
    latest = done_ps_;
    write = current_.req.op == IoOp::kWrite;
  }
  for (const OutOfTurn& o : out_of_turn_) {
    if (o.in_flight && o.done_ps <= t && o.done_ps > latest) {
      latest = o.done_ps;
      write = o.req.op == IoOp::kWrite;
    }
  }
  return write;
}

void HddDevice::Impl::SendWhileBusy(Pending& p) {
  if (!bus_.enabled()) return;
  const HddInterface& io = p_.interface;
  p.waited = true;
  p.delivered_ps = HostTurnPs(p.delivered_ps);
  p.after_write = LastDoneWasWriteAt(p.delivered_ps);
  const int after = p.after_write ? 1 : 0;
  int64_t phase = Ps(io.per_request_ns);
  if (p.req.op == IoOp::kRead) {
    phase += Ps(io.read_miss_ns[after]) + Ps(io.read_disconnect_ns[after]);
  } else if (WriteBack()) {
    phase += Ps(io.write_hit_ns[after]) + Ps(io.write_disconnect_ns);
  } else {
    phase += Ps(io.write_miss_ns[after]);  // DiskSim adds no disconnect overhead here
  }
  host_bus_until_ps_ = p.delivered_ps + Ps(io.bus_arbitration_ns) + phase;
  if (busy_ && plan_.kind != BusPlan::Kind::kNone) {
    host_spans_.push_back(HostSpan{p.delivered_ps, host_bus_until_ps_});
    Replan();
  }
}

int64_t HddDevice::Impl::HostFreePs(int64_t t) const {
  for (bool moved = true; moved;) {
    moved = false;
    for (const HostSpan& h : host_spans_) {
      if (t >= h.from && t < h.to) {
        t = h.to;
        moved = true;
      }
    }
  }
  return t;
}

void HddDevice::Impl::Replan() {
  bus_.Restore(plan_.mark);
  int64_t done;
  if (plan_.kind == BusPlan::Kind::kReadData) {
    done = BusPipeline(plan_.bus_free, plan_.b, plan_.watermark, plan_.sending, plan_.buffered, plan_.media_blocks,
                       plan_.after) +
           plan_.tail_ps;
    intake_.until_ps = done - plan_.tail_ps;
  } else {
    const int64_t connect = HostFreePs(plan_.connect_ps);
    bus_.Connect(connect);
    done = connect + plan_.tail_ps;
  }
  bus_.Disconnect(done);
  if (done <= done_ps_) return;
  done_ps_ = done;
  if (open_release_.seg >= 0 && open_release_.seg == plan_.seg) open_release_.done_ps = done;
  if (p_.cache.preseek_level > 0) arm_release_ps_ = ArmReleasePs(current_.req.op == IoOp::kWrite, done);
}

// --- reads -----------------------------------------------------------------

// `cmd`: the command, whose cache segment its estimate may have found. Its turn on the
// bus comes at `t`; the arm is its, and the buffer is looked up, at `take`.
int64_t HddDevice::Impl::ServeRead(const Pending& cmd, int64_t lbn, int64_t n, int64_t t, int64_t take,
                                   HddBreakdown* bd) {
  const HddInterface& io = p_.interface;
  const int64_t b = Ps(io.bus_read_block_ns);
  AdvanceReadAhead(take);
  const int seg = p_.cache.enabled ? cache_.FindAgain(lbn, cmd.seg, cmd.seg_version) : -1;
  if (seg >= 0 && cache_.at(seg).end >= lbn + n) {
    bd->cache = HddBreakdown::CacheOutcome::kWholeHit;
    return ServeWholeHit(cmd, lbn, n, t, take, seg);
  }
  if (JoinsReadAhead(seg, lbn)) return ServeFromReadAhead(cmd, lbn, n, t, bd);
  // A miss that waited in the drive's queue took its command and disconnected when it
  // came, while the drive served others (disk_read_arrive, with the overheads of the
  // command completed last by then): its turn starts the arm at once, and its data wait
  // for the bus the command before it held until `t`. A drive that never disconnects
  // holds the bus until its command completes: the next command reaches it only then.
  const int after = cmd.after_write ? 1 : 0;
  const int64_t came = io.never_disconnect ? t : cmd.delivered_ps + Ps(io.bus_arbitration_ns);
  const int64_t cmd_done = came + Ps(io.per_request_ns) + Ps(io.read_miss_ns[after]);
  // Preseeking lets a miss have the arm early only if a segment is free for it:
  // disk_buffer_select_read_segment passes over the one the command before still holds
  // unless giving the arm up marked it empty (CompleteRead). Else it waits for that
  // command's completion.
  if (seg < 0 && take < t) {
    const int victim = CleanVictim(/*for_write=*/false, take);
    if (victim == seg_in_use_ && !cache_.at(victim).empty()) take = t;
  }
  const int64_t turn = std::max(cmd_done, take);  // its command done and the arm its
  const int64_t arm_start = ArmStart(take, turn);

  // The rest of a partial hit comes from the media. Its cached head is sent at once if
  // it is enough to start with (the watermark's worth, or any with "Immed transfer
  // partial hit" or on a drive that never disconnects: disk_read_arrive). Otherwise
  // the drive disconnects after the command, as for a miss, and reconnects no sooner
  // than that takes, the head waiting to go first; a drive that never disconnects is
  // ready to send a miss's data as soon as the command is done.
  const int64_t watermark = ReadWatermark(n);  // its floating point overlaps the walk
  const int64_t cached = seg >= 0 ? cache_.at(seg).end - lbn : 0;
  const bool sending =
      cached > 0 && (io.never_disconnect || io.immediate_partial_hit || cached >= std::min(watermark, n));
  if (cached > 0) bd->cache = HddBreakdown::CacheOutcome::kPartialHit;
  const int64_t bus_turn = BusTurnPs(t);
  int64_t bus_free = io.never_disconnect ? std::max(turn, bus_turn) + Ps(io.data_prep_ns)
                                         : std::max(cmd_done + Ps(io.read_disconnect_ns[after]), bus_turn) + ReconnectPs();
  // The command held the bus from its arrival until it disconnected (a drive that
  // never disconnects, or sends at once, holds it on).
  bus_.Connect(came - Ps(io.bus_arbitration_ns));
  if (!io.never_disconnect && !sending) bus_.Disconnect(cmd_done + Ps(io.read_disconnect_ns[after]));
  if (sending) {
    bus_free = HitReadyPs(cmd, bus_turn, p_.cache.sneaky_partial_read_hits) + Ps(io.data_prep_ns) + cached * b;
  }
  const int64_t media_lbn = lbn + cached, media_n = n - cached;
  const int64_t media_end =
      WalkMedia(media_lbn, media_n, arm_start, /*is_write=*/false, bd, /*positioned=*/false, ZeroLatencyFor(false));
  media_done_ps_ = media_end;
  bd->wait_ns = RoundNs(arm_start - turn);
  const int64_t sent = SendReadData(bus_free, b, watermark, sending, cached, media_n, -1);

  // A fresh segment also keeps the free blocks read on the way to the first wanted one.
  const int64_t fill_from = seg < 0 && p_.cache.read_any_free_blocks ? lbn - FreeBlocksBefore(lbn) : lbn;
  const int64_t held_from = seg >= 0 ? std::min(cache_.at(seg).start, lbn) : fill_from;
  const int target_seg = seg >= 0 ? seg : CleanVictim(/*for_write=*/false, t);
  if (seg >= 0) {
    cache_.Extend(seg, lbn + n);
    cache_.Touch(seg);
  } else {
    cache_.Fill(target_seg, fill_from, lbn + n, /*is_write=*/false);
  }
  KeepIntake(target_seg, lbn, sent);
  seg_taken_ps_ = seg < 0 ? arm_start : 0;
  if (p_.cache.enabled) StartReadAhead(target_seg, held_from, lbn, lbn + n, media_end);
  ForgetSentData(target_seg, lbn + n);
  plan_.seg = target_seg;  // read only when a plan was kept
  return CompleteRead(target_seg, sent + Ps(io.read_completion_ns));
}

// A read whose head lies in the segment the read-ahead is filling is served by
// the read-ahead stream without repositioning. So is one that starts at the
// block about to be read ahead on drives that allow "almost hits" (DiskSim counts
// it a partial hit), or anywhere ahead inside the read-ahead window on drives
// that join the whole window.
bool HddDevice::Impl::JoinsReadAhead(int seg, int64_t lbn) const {
  if (!ra_.active) return false;
  if (seg >= 0) return seg == ra_.segment;
  if (p_.cache.join_read_ahead_window) return lbn >= ra_.next_lbn && lbn < ra_.target_lbn;
  return p_.cache.allow_almost_read_hits && lbn == ra_.next_lbn;
}

// `cmd`: the command, which joins the read-ahead stream at its turn `t`. DiskSim's
// disk_read_arrive takes a partial hit whose cached head is enough to start (the
// watermark's worth, or any with "Immed transfer partial hit") as a hit: its head goes
// after the hit overhead. One that is not, a read starting at the block about to be
// read (an almost hit), and one that came while the drive had another command (on a
// DiskSim bus) go the miss's way: the miss overhead and a disconnect, then a
// reconnection once the watermark's worth waits. A drive that never disconnects takes
// every one as a hit, and a read joining the window ahead (join_read_ahead_window,
// beyond DiskSim) is taken as one too.
int64_t HddDevice::Impl::ServeFromReadAhead(const Pending& cmd, int64_t lbn, int64_t n, int64_t t,
                                            HddBreakdown* bd) {
  const HddInterface& io = p_.interface;
  const int64_t b = Ps(io.bus_read_block_ns);
  const int seg = ra_.segment;
  const int64_t cached = std::max<int64_t>(ra_.next_lbn - lbn, 0);
  const int64_t gap = std::max<int64_t>(lbn - ra_.next_lbn, 0);
  bd->cache = cached > 0 ? HddBreakdown::CacheOutcome::kPartialHit : HddBreakdown::CacheOutcome::kMiss;
  const int64_t watermark = ReadWatermark(n);
  const bool enough = cached > 0 && (io.never_disconnect || io.immediate_partial_hit || cached >= std::min(watermark, n));
  const bool hit_way =
      io.never_disconnect || (!cmd.waited && (enough || (cached == 0 && p_.cache.join_read_ahead_window)));
  const bool sending = hit_way && cached > 0;  // the cached head goes at once
  const int64_t bus_turn = BusTurnPs(t);
  int64_t bus_free;
  if (hit_way) {
    const int64_t ready = bus_turn + Ps(io.per_request_ns) + Ps(io.read_hit_ns[prev()]) + Ps(io.data_prep_ns);
    bus_.Connect(bus_turn);
    if (!sending) bus_.Disconnect(ready);
    bus_free = ready + (sending ? cached * b : 0);
  } else {
    const int after = cmd.waited ? (cmd.after_write ? 1 : 0) : prev();
    const int64_t came = cmd.waited ? cmd.delivered_ps + Ps(io.bus_arbitration_ns) : t;
    const int64_t cmd_done = came + Ps(io.per_request_ns) + Ps(io.read_miss_ns[after]);
    bus_.Connect(came - Ps(io.bus_arbitration_ns));
    bus_.Disconnect(cmd_done + Ps(io.read_disconnect_ns[after]));
    bus_free = std::max(cmd_done + Ps(io.read_disconnect_ns[after]), bus_turn) + ReconnectPs();
  }
  const int64_t media_end = WalkMedia(ra_.next_lbn, lbn + n - ra_.next_lbn, ra_.next_start_ps,
                                      /*is_write=*/false, bd, /*positioned=*/true);
  media_done_ps_ = media_end;
  DropLeadingBlocks(gap);  // read ahead into the buffer, not sent to the host
  const int64_t sent = SendReadData(bus_free, b, watermark, sending, cached, n - cached, seg);
  KeepIntake(seg, lbn, sent);
  const int64_t held_from = std::min(cache_.at(seg).start, lbn);
  cache_.Extend(seg, lbn + n);
  cache_.Touch(seg);
  ra_.next_lbn = lbn + n;
  ra_.target_lbn = std::max(ra_.target_lbn, ReadAheadTarget(held_from, lbn, lbn + n));
  ra_.min_lbn = std::max(ra_.min_lbn, MinReadAheadEnd(lbn + n));
  if (ra_.next_lbn < ra_.target_lbn) {
    PositionReadAhead(media_end);
  } else {
    ra_.active = false;
  }
  ForgetSentData(seg, lbn + n);
  return CompleteRead(seg, sent + Ps(io.read_completion_ns));
}

int64_t HddDevice::Impl::ServeWholeHit(const Pending& cmd, int64_t lbn, int64_t n, int64_t t, int64_t take,
                                       int seg) {
  const HddInterface& io = p_.interface;
  cache_.Touch(seg);
  // A hit needs no media access: a read-ahead running into this segment gets
  // its target pushed past the request, and drives that "read ahead on idle
  // hit" restart a finished one the same way, when the hit reaches the arm.
  ExtendReadAhead(seg, lbn, lbn + n, take);
  const int64_t ready = HitReadyPs(cmd, BusTurnPs(t), p_.cache.sneaky_full_read_hits);
  bus_.Connect(BusTurnPs(t));
  ForgetSentData(seg, lbn + n);
  const int64_t sent = ready + Ps(io.data_prep_ns) + n * Ps(io.bus_read_block_ns);
  intake_.head = {sent, n};
  intake_.runs.clear();
  KeepIntake(seg, lbn, sent);
  return CompleteRead(seg, sent + Ps(io.read_completion_ns));
}

// When a read hit whose turn on the bus comes at `t` may start sending from the
// buffer. A hit that came to a DiskSim drive while it had another command (waited:
// one the drive could send at once went out of turn, SneakyHitPs), or, unless the
// drive allows "sneaky" hits of its kind, that comes while a destage holds the
// mechanism, is taken like a miss (DiskSim's disk_read_arrive takes the hit path only
// if nothing else holds the bus or the arm, or its access can be stopped): it
// disconnected after a miss's command overhead when it came, and reconnects at its
// turn, or once the destage is over.
int64_t HddDevice::Impl::HitReadyPs(const Pending& cmd, int64_t t, bool sneaky) const {
  const HddInterface& io = p_.interface;
  if (io.never_disconnect || (!cmd.waited && (sneaky || arm_free_ps_ <= t))) {
    return t + Ps(io.per_request_ns) + Ps(io.read_hit_ns[prev()]);
  }
  const int after = cmd.waited ? (cmd.after_write ? 1 : 0) : prev();
  const int64_t came = cmd.waited ? cmd.delivered_ps + Ps(io.bus_arbitration_ns) : t;
  const int64_t disconnected =
      came + Ps(io.per_request_ns) + Ps(io.read_miss_ns[after]) + Ps(io.read_disconnect_ns[after]);
  return std::max({t, arm_free_ps_, disconnected}) + Ps(io.bus_arbitration_ns) + Ps(io.first_reselect_ns);
}

// A read completes at `done_ps`; returns done_ps. With preseeking, a read whose media
// work (and the read-ahead of its segment after it) is over before then gave the arm
// up before the host confirmed the completion, and DiskSim 4.0 then leaves its segment
// marked empty: disk_release_hda stores a truth value in seg->state, and 1 is
// BUFFER_EMPTY. A read-ahead still running then ends later as a pure prefetch, which
// keeps the segment. Decided by SettleRelease, when the next command takes the arm
// (it may stop the read-ahead before the completion); a read still open for another
// segment is decided first, as of its own completion.
int64_t HddDevice::Impl::CompleteRead(int seg, int64_t done_ps) {
  seg_in_use_ = seg;
  if (p_.cache.preseek_level == 0) return done_ps;
  if (open_release_.seg >= 0 && open_release_.seg != seg) SettleRelease(open_release_.done_ps);
  open_release_ = OpenRelease{seg, done_ps};
  return done_ps;
}

// Decides, as of `t` (an arm taken then), whether the open read gave the arm up before
// its completion: its segment's read-ahead over by then (or by the completion, if
// sooner) empties the segment; one still running at the completion keeps it. One
// still running at `t`, before the completion, is left open for ArmStart, which stops it.
void HddDevice::Impl::SettleOpenRelease(int64_t t) {
  AdvanceReadAhead(std::min(t, open_release_.done_ps));
  const bool reading_ahead = ra_.active && ra_.segment == open_release_.seg;
  if (reading_ahead && t < open_release_.done_ps) return;
  if (!reading_ahead) cache_.Empty(open_release_.seg);
  open_release_.seg = -1;
}

int64_t HddDevice::Impl::ArmReleasePs(bool is_write, int64_t done_ps) const {
  const HddInterface& io = p_.interface;
  if (p_.cache.preseek_level == 2) return media_done_ps_;
  const SimTime completion_ns = is_write ? io.write_completion_ns : io.read_completion_ns;
  return std::max(media_done_ps_, done_ps - Ps(completion_ns));  // level 1: the completion sent
}

// Sectors that must wait in the buffer before a disconnected read of `n` blocks reconnects
// to send them (or all it has left to send, if fewer), by the request's size or the segment's.
int64_t HddDevice::Impl::ReadWatermark(int64_t n) const {
  const HddInterface& io = p_.interface;
  int64_t w;
  if (io.watermark_by_request_size) {
    w = static_cast<int64_t>(io.read_watermark * std::min<int64_t>(p_.cache.segment_blocks, n));
  } else {
    w = static_cast<int64_t>(std::ceil(io.read_watermark * p_.cache.segment_blocks));
  }
  return std::max<int64_t>(w, 1);
}

// Sends `buffered` cached sectors, then the `media_blocks` sectors of runs_ as they
// land, over the bus. `sending`: the disk is connected, sending cached data until
// `bus_free`; otherwise it has disconnected, and data flow no sooner than `bus_free`.
// A disconnected disk connects once `watermark` sectors wait in the buffer, or all that
// are left (DiskSim's disk_request_needs_bus), paying arbitration, reselect and data
// preparation. One that may not hold the bus disconnects whenever the buffer runs dry,
// and reconnects the same way once the disconnect is over. Its connections go into bus_
// (a sending disk's began before; the completion ends the last).
int64_t HddDevice::Impl::Intake::TakenBy(int64_t t) const {
  int64_t taken = 0;
  const auto within = [&](const std::pair<int64_t, int64_t>& run, int64_t before) {
    // The run's blocks (before, run.second] went back to back, the last at run.first.
    if (t >= run.first) return run.second;
    if (block_ps <= 0) return before;
    return std::max(before, run.second - CeilDiv(run.first - t, block_ps));
  };
  if (head.second > 0) {
    taken = within(head, 0);
    if (t < head.first) return taken;
  }
  for (const auto& run : runs) {
    const int64_t before = taken;
    taken = within(run, before);
    if (t < run.first) return taken;
  }
  return taken;
}

int64_t HddDevice::Impl::BusPipeline(int64_t bus_free, int64_t b, int64_t watermark, bool sending, int64_t buffered,
                                     int64_t media_blocks, int after) {
  const HddInterface& io = p_.interface;
  const int64_t reconnect = ReconnectPs();
  const int64_t disconnect = Ps(io.read_disconnect_ns[after]);
  int64_t left = buffered + media_blocks;  // sectors not sent yet
  int64_t waiting = buffered;  // of them, sectors in the buffer while the disk is disconnected
  bool connected = io.never_disconnect || sending;
  const bool holds_bus = io.hold_bus_read || io.never_disconnect;
  intake_.runs.clear();
  int64_t sent = intake_.head.second;
  for (const MediaRun& r : runs_) {
    if (connected && !holds_bus && bus_free < r.first_ready_ps()) {
      connected = false;
      bus_.Disconnect(bus_free + disconnect);
      bus_free += disconnect + reconnect;
    }
    const int64_t need = std::min(watermark, left);
    if (!connected && waiting + r.blocks >= need) {
      const int64_t wth = r.start_ps + (need - waiting) * r.sector_ps;
      // It reconnects once a host command that took the bus meanwhile lets it go.
      const int64_t connect = host_spans_.empty() ? std::max(bus_free - reconnect, wth)
                                                  : HostFreePs(std::max(bus_free - reconnect, wth));
      bus_.Connect(connect);
      bus_free = connect + reconnect + waiting * b;  // those waiting go first
      left -= waiting;
      sent += waiting;
      intake_.runs.emplace_back(bus_free, sent);
      waiting = 0;
      connected = true;
    }
    if (!connected) {
      waiting += r.blocks;
      continue;
    }
    left -= r.blocks;
    bus_free = std::max({bus_free + r.blocks * b, r.first_ready_ps() + r.blocks * b, r.end_ps() + b});
    sent += r.blocks;
    intake_.runs.emplace_back(bus_free, sent);
  }
  return bus_free;
}

// --- read-ahead --------------------------------------------------------------

// Where schemes 1-3 stop reading ahead of a request [req_lbn, req_end): the maximum
// read-ahead past its end or, when that is 0, a segment's worth (DiskSim's
// disk_buffer_get_max_readahead): from the request's start if the segment keeps the
// requested blocks ("Read-ahead over requested" = 0; past the minimum if the request
// leaves less room than that), else from its end.
int64_t HddDevice::Impl::MaxReadAheadEnd(int64_t req_lbn, int64_t req_end) const {
  const HddCache& c = p_.cache;
  if (c.max_read_ahead_blocks > 0) return req_end + c.max_read_ahead_blocks;
  if (c.read_ahead_over_requested != 0) return req_end + c.segment_blocks;
  const int64_t blocks = req_end - req_lbn;
  if (blocks >= c.segment_blocks || c.segment_blocks - blocks < c.min_read_ahead_blocks) {
    return req_end + c.min_read_ahead_blocks;
  }
  return req_lbn + c.segment_blocks;
}

// "Read-ahead over requested" = -1: the requested blocks leave the segment once sent.
void HddDevice::Impl::ForgetSentData(int seg, int64_t req_end) {
  if (p_.cache.read_ahead_over_requested != -1 || seg < 0) return;
  cache_.DropBefore(seg, req_end);
}

// How far to read past a request [req_lbn, req_end), whose segment holds data from
// `held_from` on.
int64_t HddDevice::Impl::ReadAheadTarget(int64_t held_from, int64_t req_lbn, int64_t req_end) const {
  const HddCache& c = p_.cache;
  const int64_t last = geo_.total_blocks();
  if (req_end >= last) return last;
  int64_t target = req_end;
  switch (c.read_ahead_scheme) {
    case 0:
      return req_end;
    case 1:
    case 2: {  // to the end of the track (1) or cylinder (2) holding the request's last block
      int64_t lbn = req_end - 1;
      TrackRun run = geo_.RunOnTrack(lbn, last - lbn);
      const int cylinder = run.start.cylinder;
      for (;;) {
        lbn += run.blocks;
        if (lbn >= last || c.read_ahead_scheme == 1) break;
        run = geo_.RunOnTrack(lbn, last - lbn);
        if (run.start.cylinder != cylinder) break;
      }
      target = std::min(lbn, MaxReadAheadEnd(req_lbn, req_end));
      break;
    }
    case 3:
      target = MaxReadAheadEnd(req_lbn, req_end);
      break;
    case 4: {  // DEC: to the end of the track after the request, one more track
               // when the segment already held data from an earlier track (a stream)
      const TrackRun next_run = geo_.RunOnTrack(req_end, last - req_end);  // req_end < last: not empty
      const PhysicalAddress& next = next_run.start;
      const PhysicalAddress held = geo_.Map(held_from);
      target = req_end + next_run.blocks;
      if (held.cylinder != next.cylinder || held.head != next.head) {
        target += geo_.SectorsPerTrack(next.cylinder);
      }
      break;
    }
  }
  // Past the segment's size the read-ahead keeps going and the segment slides
  // forward over data the host has taken (HddSegmentCache::Extend).
  return std::min(std::max(target, std::min<int64_t>(req_end + c.min_read_ahead_blocks, last)), last);
}

void HddDevice::Impl::StartReadAhead(int seg, int64_t held_from, int64_t req_lbn, int64_t req_end, int64_t t) {
  ra_.active = false;
  const int64_t target = ReadAheadTarget(held_from, req_lbn, req_end);
  if (target <= req_end) return;
  ra_ = ReadAhead{true, seg, req_end, target, MinReadAheadEnd(req_end), 0, 0, 0};
  PositionReadAhead(t);
}

void HddDevice::Impl::ExtendReadAhead(int seg, int64_t req_lbn, int64_t req_end, int64_t t) {
  const int64_t target = ReadAheadTarget(std::min(cache_.at(seg).start, req_lbn), req_lbn, req_end);
  if (ra_.active && ra_.segment == seg) {
    ra_.target_lbn = std::max(ra_.target_lbn, target);
    ra_.min_lbn = std::max(ra_.min_lbn, MinReadAheadEnd(req_end));
    return;
  }
  const int64_t from = cache_.at(seg).end;
  if (!p_.cache.read_ahead_on_idle_hit || from >= target) return;
  // DiskSim starts it once the hit's command overhead is done, which it charges as a
  // read miss's (disk_read_arrive's overhead_done), after any stop of a read-ahead.
  const HddInterface& io = p_.interface;
  const int64_t command_ps = Ps(io.per_request_ns) + Ps(io.read_miss_ns[prev()]);
  const int64_t arm_idle = std::max(StopReadAhead(t) + command_ps, arm_free_ps_);
  ra_ = ReadAhead{true, seg, from, target, MinReadAheadEnd(req_end), 0, 0, 0};
  PositionReadAhead(arm_idle);
}

// Moves the arm toward ra_.next_lbn's track starting at `t`.
void HddDevice::Impl::PositionReadAhead(int64_t t) {
  const PhysicalAddress a = geo_.Map(ra_.next_lbn);
  ra_.positioned_ps = t;
  ra_.paused = false;
  ra_.seek_done_ps = t + mech_.PositionPs(a, /*is_write=*/false);
  mech_.MoveTo(a);
  ra_.next_start_ps = ra_.seek_done_ps + mech_.RotationalWaitPs(ra_.seek_done_ps, a);
}

// Replays the read-ahead up to time `t`: every sector finished by then is in the segment.
void HddDevice::Impl::AdvanceReadAhead(int64_t t) {
  while (ra_.active) {
    if (ra_.next_lbn >= ra_.target_lbn) {
      ra_.active = false;
      ra_.done_ps = ra_.next_start_ps;  // the run's last sector, read last time, ended then
      break;
    }
    const TrackRun run = geo_.RunOnTrack(ra_.next_lbn, ra_.target_lbn - ra_.next_lbn);
    const int64_t st = mech_.SectorPsOnTrackOf(run.sectors_per_track);
    if (t < ra_.next_start_ps + st) break;
    const int64_t finished = (t - ra_.next_start_ps) / st;
    if (const int64_t can = std::min(finished, run.blocks); intake_.seg == ra_.segment) {
      const int64_t k = BlocksWithRoom(can, st);
      if (k < can) {
        // Block k's sector passes without room: it comes round a revolution later.
        ra_.next_lbn += k;
        ra_.next_start_ps += k * st + mech_.period_ps();
        ra_.paused = true;
        ra_.sector_ps = st;
        if (k > 0) cache_.Extend(ra_.segment, ra_.next_lbn);
        continue;
      }
    }
    ra_.paused = false;
    if (finished < run.physical_span) {
      const int64_t k = std::min(finished, run.blocks);
      ra_.next_lbn += k;
      ra_.next_start_ps += k * st;
      cache_.Extend(ra_.segment, ra_.next_lbn);
      break;
    }
    const int64_t run_end = ra_.next_start_ps + run.physical_span * st;
    ra_.next_lbn += run.blocks;
    cache_.Extend(ra_.segment, ra_.next_lbn);
    if (ra_.next_lbn >= ra_.target_lbn) {
      ra_.active = false;
      ra_.done_ps = run_end;
      break;
    }
    PositionReadAhead(run_end);
  }
}

int64_t HddDevice::Impl::BlocksWithRoom(int64_t blocks, int64_t st) const {
  // A segment's worth from the read's first block always has room.
  if (ra_.next_lbn + blocks <= intake_.first_lbn + p_.cache.segment_blocks) return blocks;
  // Room only grows: the sectors that have room as the first starts have it as they
  // start; from the first that may not, look again as it starts, until room stops growing.
  int64_t k = 0;
  while (k < blocks) {
    const int64_t room = RoomEndLbn(ra_.segment, ra_.next_start_ps + k * st) - ra_.next_lbn;
    if (room <= k) return k;
    k = room;
  }
  return blocks;
}

// StopReadAhead of a read-ahead still running at `t`. The arm is free once it has
// read its minimum, at the end of a seek in progress (the arm is then over the
// read-ahead's track), at once while it waits for rotation (or, on a DiskSim drive,
// as its sector comes: prefetch_stops_at_its_sector), or at the end of the sector
// being read unless the drive may stop mid-sector.
int64_t HddDevice::Impl::StopActiveReadAhead(int64_t t) {
  if (ra_.next_lbn < ra_.min_lbn) {
    // Short of its minimum, the read-ahead cannot be stopped (DiskSim's
    // disk_buffer_stopable_access): it reads up to the minimum, and no further.
    ra_.target_lbn = ra_.min_lbn;
    AdvanceReadAhead(std::numeric_limits<int64_t>::max());
    return std::max(t, ra_.done_ps);
  }
  ra_.active = false;
  if (t < ra_.seek_done_ps) return ra_.seek_done_ps;
  if (t < ra_.next_start_ps) {
    if (!p_.cache.prefetch_stops_at_its_sector || p_.cache.stop_prefetch_in_sector) return t;
    // DiskSim's next sector event: as the next sector passes while waiting for room.
    if (ra_.paused) return ra_.next_start_ps - (ra_.next_start_ps - t) / ra_.sector_ps * ra_.sector_ps;
    return ra_.next_start_ps;
  }
  if (p_.cache.stop_prefetch_in_sector) return t;
  ++ra_.next_lbn;
  cache_.Extend(ra_.segment, ra_.next_lbn);
  return ra_.next_start_ps + mech_.SectorPs(geo_.Map(ra_.next_lbn - 1).cylinder);
}

// When the arm may start moving for a command whose firmware work ends at
// `cmd_done`. Stopping a read-ahead adds its wait to the command's own (DiskSim
// sums them rather than overlapping them); a destage in progress must finish.
// An open read (preseeking) whose read-ahead this stops gave the arm up when it stopped.
int64_t HddDevice::Impl::ArmStart(int64_t t, int64_t cmd_done) {
  SettleRelease(t);
  const int64_t ra_free = StopReadAhead(t);
  if (open_release_.seg >= 0) {
    if (ra_free < open_release_.done_ps) cache_.Empty(open_release_.seg);
    open_release_.seg = -1;
  }
  return std::max(cmd_done + (ra_free - t), arm_free_ps_);
}

// --- media -------------------------------------------------------------------

// Positions and transfers `n` LBNs from `lbn`, starting at `t`; fills runs_ (in the
// order the host takes the data) and the breakdown's first-positioning figures.
// Returns when the last sector ends. `positioned`: the head is already over lbn's
// track and its sector starts at `t`.
int64_t HddDevice::Impl::WalkMedia(int64_t lbn, int64_t n, int64_t t, bool is_write, HddBreakdown* bd,
                                   bool positioned, ZeroLatency zero_latency) {
  runs_.clear();
  int64_t first_data_ps = 0;
  while (n > 0) {
    const TrackRun run = geo_.RunOnTrack(lbn, n);
    const bool first = runs_.empty();
    const int64_t position = first && positioned ? 0 : mech_.PositionPs(run.start, is_write);
    const int64_t seek_end = t + position;
    int64_t wait = first && positioned ? 0 : mech_.RotationalWaitPs(seek_end, run.start);
    const int64_t distance = std::abs(run.start.cylinder - mech_.cylinder());
    mech_.MoveTo(run.start);
    const int64_t st = mech_.SectorPsOnTrackOf(run.sectors_per_track);
    const bool zl = zero_latency == ZeroLatency::kEveryTrack || (first && zero_latency == ZeroLatency::kFirstTrack);
    if (zl && !(first && positioned) && SplitForZeroLatency(run, seek_end, seek_end + wait, st)) {
      t = runs_[runs_.size() - 2].end_ps();  // the run's head, read after the wrap, ends the track
      if (first) wait = runs_.back().start_ps - seek_end;
    } else {
      runs_.push_back(MediaRun{seek_end + wait, run.blocks, run.physical_span, st});
      t = runs_.back().end_ps();
    }
    if (first) {
      land_ps_ = seek_end;
      first_data_ps = seek_end + wait;
      bd->seek_cylinders = distance;
      bd->seek_ns = RoundNs(position);
      bd->latency_ns = RoundNs(wait);
      dev_.stats_.OnSeek(bd->seek_cylinders);
    }
    lbn += run.blocks;
    n -= run.blocks;
  }
  if (!runs_.empty()) bd->transfer_ns = RoundNs(t - first_data_ps);
  return t;
}

// Zero-latency access of one track run whose first sector next starts at `start_ps`:
// if the head, landing at `land_ps`, is past that sector's previous pass but before
// the run's last sector, it takes the sectors from the next boundary to the run's end
// first, then the run's head when it comes round. Pushes the two parts in the order
// of their LBNs (head, then tail) and returns true; false leaves runs_ unchanged. A
// run with slips inside is read in order.
bool HddDevice::Impl::SplitForZeroLatency(const TrackRun& run, int64_t land_ps, int64_t start_ps, int64_t st) {
  const int64_t k = ZeroLatencyHead(run, land_ps, start_ps, st);
  if (k == 0) return false;
  const int64_t previous_pass = start_ps - mech_.period_ps();
  runs_.push_back(MediaRun{start_ps, k, k, st});
  runs_.push_back(MediaRun{previous_pass + k * st, run.blocks - k, run.blocks - k, st});
  return true;
}

// The run's sectors before the one a zero-latency access starts with (its head, read
// after the wrap): 0 when it starts with the first, as when the head lands before the
// run's first sector's previous pass, past its last sector, or on a run with slips.
int64_t HddDevice::Impl::ZeroLatencyHead(const TrackRun& run, int64_t land_ps, int64_t start_ps, int64_t st) const {
  if (run.blocks < 2 || run.blocks != run.physical_span) return 0;
  const int64_t previous_pass = start_ps - mech_.period_ps();
  if (previous_pass >= land_ps) return 0;  // the head lands before the run: no wait to save
  const int64_t k = CeilDiv(land_ps - previous_pass, st);
  return k < run.blocks ? k : 0;
}

HddDevice::Impl::ZeroLatency HddDevice::Impl::ZeroLatencyFor(bool is_write) const {
  const HddCache& c = p_.cache;
  if (is_write ? c.zero_latency_writes : c.zero_latency_reads) return ZeroLatency::kEveryTrack;
  return !is_write && c.read_any_free_blocks ? ZeroLatency::kFirstTrack : ZeroLatency::kNone;
}

// Blocks of lbn's track before lbn that passed under the head between its landing
// and lbn's sector (runs_ holds the access that starts at lbn).
int64_t HddDevice::Impl::FreeBlocksBefore(int64_t lbn) const {
  const int64_t on_track = lbn - geo_.FirstLbnOnTrack(lbn);
  if (on_track == 0 || runs_.empty()) return 0;
  const MediaRun& head = runs_.front();
  return std::min(on_track, (head.start_ps - land_ps_) / head.sector_ps);
}

// Removes the first `blocks` sectors from runs_ (they were read, but belong to
// no request).
void HddDevice::Impl::DropLeadingBlocks(int64_t blocks) {
  size_t i = 0;
  while (blocks > 0 && i < runs_.size()) {
    MediaRun& r = runs_[i];
    const int64_t k = std::min(blocks, r.blocks);
    r.start_ps += k * r.sector_ps;
    r.blocks -= k;
    r.span -= k;
    blocks -= k;
    if (r.blocks == 0) ++i;
  }
  runs_.erase(runs_.begin(), runs_.begin() + static_cast<std::ptrdiff_t>(i));
}

// --- writes ------------------------------------------------------------------

// Writes the sectors of runs_ as their data arrive over the bus (block i at
// data_start + (i+1)*b): a sector whose data are late passes under the head and
// is written a revolution later, and so is everything after it. Returns when
// the last sector is on the platter.
//
// Shifting by whole revolutions at each late sector adds up to the smallest
// number of revolutions that covers the latest sector's lateness so far. Within
// a run, a sector's lateness (its data's arrival, max(bus, gate), minus its
// slot) is the larger of two terms linear in its index, so the run's largest is
// at its first or last sector: one step a run, not one a sector.
int64_t HddDevice::Impl::WriteSectors(int64_t data_start_ps, int64_t b, int64_t gate_ps) {
  const int64_t rev = mech_.period_ps();
  int64_t index = 0, end = 0, shift = 0;
  for (MediaRun& r : runs_) {
    if (r.blocks > 0) {
      const int64_t bus_first = data_start_ps + (index + 1) * b - r.start_ps;
      const int64_t bus_last = bus_first + (r.blocks - 1) * (b - r.sector_ps);
      const int64_t late = std::max({bus_first, bus_last, gate_ps - r.start_ps});
      if (late > shift) shift = CeilDiv(late, rev) * rev;
      index += r.blocks;
    }
    r.start_ps += shift;
    end = r.end_ps();
  }
  return end;
}

// DiskSim 4.0's "extra write disconnect" (HP C2247A's 'Trip' writes): a write arriving
// at `t` for segment `seg`, the most recently used, behind a write it does not continue
// (disk_buffer_select_segment). Never on a drive that never disconnects, nor while a
// destage holds the mechanism (the write then disconnects as usual, disk_write_arrive).
bool HddDevice::Impl::ExtraWriteDisconnect(int seg, int64_t lbn, int64_t t) const {
  const HddInterface& io = p_.interface;
  return io.extra_write_disconnect && !io.never_disconnect && arm_free_ps_ <= t && seg == cache_.MostRecent() &&
         cache_.at(seg).holds_write && cache_.at(seg).end != lbn;
}

// `cmd`: the command, which on a DiskSim bus may have come while the drive had another
// (waited): it took its command overhead then and disconnected (disk_write_arrive, the
// DISCONNECT way, which makes no extra write disconnect), and at its turn `t` the
// drive reconnects for its data once the bus is free (BusTurnPs).
int64_t HddDevice::Impl::ServeWrite(const Pending& cmd, int64_t lbn, int64_t n, int64_t t, HddBreakdown* bd) {
  if (cmd.prebuffered) return ServePrebufferedWrite(cmd, lbn, n, t, bd);
  const HddInterface& io = p_.interface;
  const bool write_back = WriteBack();
  const int64_t b = Ps(io.bus_write_block_ns);
  const int after = cmd.waited ? (cmd.after_write ? 1 : 0) : prev();
  const int64_t arrive = (cmd.waited ? cmd.delivered_ps + Ps(io.bus_arbitration_ns) : t) + Ps(io.per_request_ns);
  const int append = p_.cache.combine_seq_writes ? cache_.FindWriteAppend(lbn, t) : -1;
  const int keep = append >= 0 ? append : CleanVictim(/*for_write=*/true, t);
  const bool extra_disconnect = !cmd.waited && ExtraWriteDisconnect(keep, lbn, t);
  // The command's overhead holds the mechanism back; an extra write disconnect's, a
  // seek delta more.
  const int64_t cmd_done =
      arrive + (extra_disconnect ? Ps(io.extradisc_command_ns + io.extradisc_seek_delta_ns)
                                 : Ps(write_back ? io.write_hit_ns[after] : io.write_miss_ns[after]));

  // The data come once the command is done. After an extra write disconnect, they come
  // once the drive has disconnected, paused and reconnected. A write that cannot append
  // to the segment being written while a destage is in progress disconnects, and
  // reconnects when that is done (disk_write_arrive); with write prebuffering, only if
  // no other write segment is free (PrebufferSegment).
  // So does one that finds a read-ahead short of its minimum holding the mechanism,
  // unless it writes into the read-ahead's segment and that stops the read-ahead.
  const bool waits_for_destage =
      write_back && append < 0 && arm_free_ps_ > t && (!p_.cache.write_prebuffering || PrebufferSegment(t) < 0);
  bool waits_for_read_ahead = false;
  if (p_.cache.min_read_ahead_blocks > 0) {  // else a read-ahead may always be stopped
    AdvanceReadAhead(t);
    if (ra_.active && p_.cache.write_hit_stop_prefetch && cache_.at(ra_.segment).start < lbn + n &&
        lbn < cache_.at(ra_.segment).end) {
      ra_.min_lbn = ra_.next_lbn;
    }
    waits_for_read_ahead = ra_.active && ra_.next_lbn < ra_.min_lbn;
  }
  const int64_t turn = std::max(cmd_done, t);  // its command done and its turn come
  const int64_t arm_start = ArmStart(t, turn);
  int64_t data_start = cmd_done + Ps(io.data_prep_ns);
  const int64_t busy_until = waits_for_destage ? arm_free_ps_ : waits_for_read_ahead ? ra_.done_ps : 0;
  if (cmd.waited) {
    // Disconnected since its command (a write-back write with its disconnect overhead),
    // it reconnects for its data at its turn.
    const int64_t gone = cmd_done + (write_back ? Ps(io.write_disconnect_ns) : 0);
    data_start = std::max({gone, BusTurnPs(t), busy_until}) + ReconnectPs();
    bus_.Connect(data_start - ReconnectPs());
  } else if (extra_disconnect) {
    bus_.Connect(t);  // the command
    const int64_t gone = arrive + Ps(io.extradisc_command_ns + io.extradisc_disconnect_ns);
    bus_.Disconnect(gone);
    data_start = gone + Ps(io.extradisc_inter_disconnect_ns) + ReconnectPs();
    bus_.Connect(data_start - ReconnectPs());
  } else if (waits_for_destage || waits_for_read_ahead) {
    bus_.Connect(t);
    bus_.Disconnect(cmd_done + Ps(io.write_disconnect_ns));
    data_start = std::max(busy_until, cmd_done + Ps(io.write_disconnect_ns)) + ReconnectPs();
    bus_.Connect(data_start - ReconnectPs());
  } else {
    bus_.Connect(t);  // the command, and its data
  }

  int64_t gate = 0;
  if (io.extra_write_disconnect) {
    // The media transfer waits until the segment holds a minimum of the write's data.
    const int64_t need = n < 45 ? std::min<int64_t>(n, 10) : 15;
    gate = data_start + need * b;
  }
  const int64_t media_end = WriteMedia(lbn, n, arm_start, turn, data_start, gate, bd);

  cache_.Invalidate(lbn, lbn + n, keep);
  if (append >= 0) {
    cache_.Extend(keep, lbn + n);
    cache_.Touch(keep);
  } else {
    cache_.Fill(keep, lbn, lbn + n, /*is_write=*/true);
  }
  cache_.set_dirty_until(keep, write_back ? media_end : 0);
  seg_in_use_ = keep;
  if (write_back) {
    bd->cache = HddBreakdown::CacheOutcome::kWriteBuffered;
    return data_start + n * b + Ps(io.write_completion_ns);
  }
  return WriteThroughCompletion(data_start + n * b,
                                extra_disconnect ? io.extradisc_second_disconnect_ns : io.write_disconnect_ns,
                                extra_disconnect ? io.other_reselect_ns : io.first_reselect_ns, media_end);
}

// Its data came out of turn (PrebufferPs): at its turn, no command and no data, only
// its sectors, written once the arm is free (the read-ahead stopped). With write-back
// it completed when its data were in: its turn ends with the last sector, when
// DiskSim's disk releases the arm to the next command.
int64_t HddDevice::Impl::ServePrebufferedWrite(const Pending& cmd, int64_t lbn, int64_t n, int64_t t,
                                               HddBreakdown* bd) {
  const bool write_back = WriteBack();
  const int64_t media_end = WriteMedia(lbn, n, ArmStart(t, t), t, cmd.data_in_ps, 0, bd);
  cache_.Touch(cmd.buffered_seg);
  cache_.set_dirty_until(cmd.buffered_seg, write_back ? media_end : 0);
  seg_in_use_ = cmd.buffered_seg;
  if (write_back) {
    bd->cache = HddBreakdown::CacheOutcome::kWriteBuffered;
    return media_end;
  }
  const HddInterface& io = p_.interface;
  return WriteThroughCompletion(cmd.data_in_ps + n * Ps(io.bus_write_block_ns), io.write_disconnect_ns,
                                io.first_reselect_ns, media_end);
}

int64_t HddDevice::Impl::WriteMedia(int64_t lbn, int64_t n, int64_t arm_start, int64_t turn, int64_t data_start,
                                    int64_t gate, HddBreakdown* bd) {
  const HddInterface& io = p_.interface;
  const bool continues_stream = lbn == last_write_end_lbn_ && arm_start == arm_free_ps_;
  if (!continues_stream && io.min_seek_delay_ns > 0) {
    // A write reaches the media no sooner than the minimum seek delay (a shorter seek
    // starts that much later, disk_initiate_seek) unless it continues the media access
    // of the write before it, which ends as it begins (disk_check_hda).
    const int64_t seek = mech_.PositionPs(geo_.Map(lbn), /*is_write=*/true);
    arm_start += std::max<int64_t>(Ps(io.min_seek_delay_ns) - seek, 0);
  }
  WalkMedia(lbn, n, arm_start, /*is_write=*/true, bd, /*positioned=*/false, ZeroLatencyFor(true));
  bd->wait_ns = RoundNs(arm_start - turn);
  const int64_t media_end = WriteSectors(data_start, Ps(io.bus_write_block_ns), gate);
  arm_free_ps_ = media_end;
  media_done_ps_ = media_end;
  last_write_end_lbn_ = lbn + n;
  return media_end;
}

// Its data in, a write-through command lets the bus go until its sectors are on the
// platter, on a drive that never disconnects too (DiskSim's disk_buffer_transfer_size
// ends every such transfer with a disconnect): its completion wins the bus again and
// reselects the host, once the disconnect is over.
int64_t HddDevice::Impl::WriteThroughCompletion(int64_t data_end, SimTime disconnect, SimTime reselect,
                                                int64_t media_end) {
  const HddInterface& io = p_.interface;
  const int64_t disconnected = data_end + Ps(disconnect);
  bus_.Disconnect(disconnected);
  const int64_t reconnect = std::max(media_end, disconnected);
  const int64_t tail = Ps(io.bus_arbitration_ns + reselect) + Ps(io.write_completion_ns);
  if (bus_.enabled()) {
    plan_ = BusPlan{};
    plan_.kind = BusPlan::Kind::kWriteCompletion;
    plan_.connect_ps = reconnect;
    plan_.tail_ps = tail;
    plan_.mark = bus_.mark();
    bus_.Connect(reconnect);
  }
  return reconnect + tail;
}

int64_t HddDevice::Impl::EstimateAccessPs(Pending& p, int64_t t, int64_t bound) const {
  const DeviceRequest& req = p.req;
  if (p_.cache.enabled && req.op == IoOp::kRead) {
    // Cached, or coming in with the read-ahead stream: no positioning at all.
    const int64_t lbn = req.offset_bytes / 512;
    const int seg = RefreshSegment(p);
    if ((seg >= 0 && cache_.at(seg).end >= lbn + req.size_bytes / 512) || JoinsReadAhead(seg, lbn)) return 0;
  }
  const int64_t start = std::max(t, arm_free_ps_) + mech_.PositionPs(p.first, req.op == IoOp::kWrite);
  if (start - t >= bound) return start - t;  // the rotational wait can only add
  return start - t + mech_.WaitUntilPs(start, p.first_start_ps);
}

double HddDevice::Impl::DisksimCost(Pending& p, int64_t t, double bound_ms) const {
  using Measure = DisksimPositioningOrder::Measure;
  switch (positioning_order_->measure()) {
    case Measure::kCylindersFromLastBlock: return std::abs(p.first.cylinder - last_block_cylinder_);
    case Measure::kCylindersFromArm: return std::abs(p.first.cylinder - mech_.cylinder());
    case Measure::kPositioningMs: break;
  }
  return DisksimEstimateMs(p, t, bound_ms);
}

// DiskSim's disk_buffer_estimate_servtime: a whole read hit 0, a partial one (its first
// block in a segment, or the next the read-ahead reads) kPartialHitMs; else the seek,
// head switch and write settle, then the wait for the first sector, or with zero
// latency for the first the head can take plus the turn past the track's other
// sectors (its "non-transfer" time); a write at least the minimum seek delay. A write
// is never a hit here (DiskSim's appendable write, a write-back segment's destage
// still writing, is not recognised).
double HddDevice::Impl::DisksimEstimateMs(Pending& p, int64_t t, double bound_ms) const {
  const DeviceRequest& req = p.req;
  const bool is_write = req.op == IoOp::kWrite;
  const int64_t lbn = req.offset_bytes / 512;
  const int64_t n = req.size_bytes / 512;
  if (positioning_order_->check_cache() && !is_write && p_.cache.enabled) {
    const int seg = RefreshSegment(p);
    if (seg >= 0 && cache_.at(seg).end >= lbn + n) return 0.0;
    if (seg >= 0 || JoinsReadAhead(seg, lbn)) return DisksimPositioningOrder::kPartialHitMs;
  }
  const int64_t position = mech_.PositionPs(p.first, is_write);
  if (static_cast<double>(position) * kMsPerPs >= bound_ms) return bound_ms + DisksimPositioningOrder::kBeyondBoundMs;
  const int64_t land = t + position;
  int64_t wait = mech_.WaitUntilPs(land, p.first_start_ps);
  if (is_write ? p_.cache.zero_latency_writes : p_.cache.zero_latency_reads) {
    const TrackRun run = geo_.RunOnTrack(lbn, n);
    const int64_t st = mech_.SectorPsOnTrackOf(run.sectors_per_track);
    if (const int64_t k = ZeroLatencyHead(run, land, land + wait, st); k > 0) {
      wait += k * st - mech_.period_ps() + (run.sectors_per_track - run.blocks) * st;
    }
  }
  return WriteFloorMs(is_write, static_cast<double>(position + wait) * kMsPerPs);
}

// DiskSim's disk_buffer_estimate_seektime.
double HddDevice::Impl::DisksimSeekMs(const Pending& p) const {
  const bool is_write = p.req.op == IoOp::kWrite;
  return WriteFloorMs(is_write, static_cast<double>(mech_.PositionPs(p.first, is_write)) * kMsPerPs);
}

// --- the device ----------------------------------------------------------------

HddDevice::HddDevice(Simulation* sim, std::string name, HddParams params, QueuePolicy policy,
                     double spindle_phase)
    : Device(sim, std::move(name)), params_(std::move(params)), policy_(policy), spindle_phase_(spindle_phase) {
  params_.Validate();
  if (!(spindle_phase >= 0.0 && spindle_phase < 1.0)) {
    throw std::logic_error("internal error: spindle phase " + std::to_string(spindle_phase) + " is not in [0, 1)");
  }
  geometry_ = MakeHddMap(params_.layout);
  impl_ = std::make_unique<Impl>(*this);
  serves_waiting_out_of_turn_ = params_.cache.sneaky_intermediate_read_hits || params_.cache.write_prebuffering;
}

HddDevice::~HddDevice() = default;

int64_t HddDevice::capacity_bytes() const { return geometry_->total_blocks() * 512; }

void HddDevice::Submit(const DeviceRequest& req) {
  CheckRequest(req);
  ++in_device_;
  stats_.OnEnter(sim_->now(), in_device_);
  // An idle drive with nothing waiting starts the command at once; otherwise it
  // waits its turn (a listener may submit while older commands wait).
  if (!impl_->busy_ && impl_->queue_.empty()) {
    impl_->Arrive(req, sim_->now(), impl_->current_);
    impl_->Start();
    return;
  }
  HddBreakdown bd;
  if (const int64_t done = impl_->SneakyHitPs(req, sim_->now(), &bd); done >= 0) {
    CompleteOutOfTurn(req, sim_->now(), bd, done);
    return;
  }
  Impl::Pending& p = impl_->queue_.Append();
  impl_->Arrive(req, sim_->now(), p);
  // A write the drive takes at once into a free write segment (disk_write_arrive's
  // READY_TO_TRANSFER way), or any command that takes its command overhead and
  // disconnects: at its disconnect (disk_disconnect -> disk_check_bus) the drive looks
  // for waiting commands to serve out of turn.
  if (!params_.cache.write_prebuffering || Prebuffer(impl_->queue_.size() - 1) == Prebuffered::kNo) {
    impl_->SendWhileBusy(p);
  }
  if (!impl_->busy_) StartNext();
  SendWaitingOutOfTurn();
}

void HddDevice::SendWaitingOutOfTurnNow() {
  if (!impl_->busy_ || impl_->OutOfTurnInFlight(Ps(sim_->now()))) return;
  auto& q = impl_->queue_;
  // One at a time: reads whole in the buffer first (disk_select_bus_request's values 6
  // and 4), then writes for which a write segment is free (-1), oldest first. The next
  // is chosen as this one's completion lets the bus go (the host's commands sent then
  // going first); a write-through write's prebuffering completes nothing, and the
  // next is chosen at once.
  if (params_.cache.sneaky_intermediate_read_hits) {
    for (size_t i = 0; i < q.size(); ++i) {
      if (SendQueuedHit(i)) return;
    }
  }
  if (params_.cache.write_prebuffering) {
    for (size_t i = 0; i < q.size(); ++i) {
      if (Prebuffer(i) == Prebuffered::kCompleted) return;
    }
  }
}

bool HddDevice::SendQueuedHit(size_t i) {
  HddBreakdown bd;
  const int64_t done = impl_->IntermediateHitPs(impl_->queue_[i], sim_->now(), &bd);
  if (done < 0) return false;
  const Impl::Pending p = impl_->queue_.Take(i);
  CompleteOutOfTurn(p.req, p.submitted, bd, done);
  return true;
}

HddDevice::Prebuffered HddDevice::Prebuffer(size_t i) {
  HddBreakdown bd;
  Impl::Pending& p = impl_->queue_[i];
  const int64_t done = impl_->PrebufferPs(p, sim_->now(), &bd);
  if (done == Impl::kNotTaken) return Prebuffered::kNo;
  if (done == Impl::kAtItsTurn) return Prebuffered::kUntilItsTurn;
  CompleteOutOfTurn(p.req, p.submitted, bd, done);
  return Prebuffered::kCompleted;
}

void HddDevice::CompleteOutOfTurn(const DeviceRequest& req, SimTime submitted, const HddBreakdown& bd,
                                  int64_t done_ps) {
  const size_t slot = impl_->AddOutOfTurn(req, submitted, bd, done_ps);
  sim_->Schedule(std::max(CeilNs(done_ps), sim_->now()), this, kOutOfTurnDoneEvent, slot);
}

SimTime HddDevice::FlushDoneAt() const { return std::max(sim_->now(), CeilNs(impl_->DirtyUntilPs())); }

void HddDevice::StartNext() {
  auto& q = impl_->queue_;
  if (q.empty()) return;
  const size_t pick = PickNext();
  impl_->current_ = q.Take(pick);
  impl_->Start();
}

void HddDevice::ClaimSegmentOfNext() {
  auto& q = impl_->queue_;
  if (q.empty()) return;
  const Impl::Pending& next = q[PickNext()];
  if (next.req.op != IoOp::kRead) return;
  impl_->ClaimMissSegment(next.req.offset_bytes / 512, Ps(sim_->now()));
}

size_t HddDevice::PickNext() {
  auto& q = impl_->queue_;
  size_t pick = 0;
  // Picked when the arm is free for it: now, or with preseeking as early as the arm's release.
  const int64_t now_ps = impl_->TakePs(Ps(sim_->now()), q[0].delivered_ps);
  impl_->SettleRelease(now_ps);
  if (q.size() > 1 && impl_->HasDisksimScheduler()) {
    // DiskSim's disk picks among the commands there when its arm was released
    // (disk_release_hda -> ioqueue_show_next_request), the one that released it still
    // in its queue; if none was there, the first to come took the arm at its arrival.
    size_t there = 0;
    while (there < q.size() && q[there].delivered_ps <= impl_->media_done_ps_) ++there;
    if (there > 0) pick = impl_->PickAsDisksim(there, now_ps);
  } else if (q.size() > 1 && policy_ == QueuePolicy::kSptf) {
    size_t there = 1;
    while (there < q.size() && q[there].delivered_ps <= now_ps) ++there;
    pick = impl_->PickSptf(there, now_ps);
  }
  if (params_.cache.write_prebuffering) pick = impl_->DestageFirst(pick, now_ps);
  return pick;
}

size_t HddDevice::Impl::PickAsDisksim(size_t there, int64_t now_ps) {
  if (disksim_order_) {
    const auto key = [](const Pending& p) { return DisksimKey(p.req.offset_bytes / 512); };
    return disksim_order_->Pick(there, [&](size_t i) { return key(queue_[i]); }, key(current_));
  }
  if (priority_order_) {
    return priority_order_->Pick(there, [&](size_t i) {
      const DeviceRequest& r = queue_[i].req;
      return DisksimPriorityOrder::Candidate{r.offset_bytes / 512,
                                             r.op == IoOp::kRead || r.urgency == Urgency::kTimeCritical};
    });
  }
  // Picked as the command before completes, or as it gives the arm up with preseeking
  // (ages run to then), costed from the arm's last sector (disksim_positioning_order.h).
  AdvanceReadAhead(now_ps);
  const int64_t last_sector_ps = LastSectorPs(now_ps);
  const auto candidate = [&](size_t i) {
    const DeviceRequest& r = queue_[i].req;
    return DisksimPositioningOrder::Candidate{r.offset_bytes / 512, r.op == IoOp::kRead,
                                              static_cast<double>(now_ps - queue_[i].delivered_ps) * kMsPerPs,
                                              r.urgency != Urgency::kNone};
  };
  const auto estimate = [&](size_t i, double bound_ms) { return DisksimCost(queue_[i], last_sector_ps, bound_ms); };
  const auto seek = [&](size_t i) { return DisksimSeekMs(queue_[i]); };
  return positioning_order_->Pick(there, candidate, estimate, seek);
}

// The first command of the least cost: none after one of cost 0 can beat it.
size_t HddDevice::Impl::PickSptf(size_t there, int64_t now_ps) {
  AdvanceReadAhead(now_ps);
  size_t pick = 0;
  int64_t best = EstimateAccessPs(queue_[0], now_ps, std::numeric_limits<int64_t>::max());
  for (size_t i = 1; i < there && best > 0; ++i) {
    const int64_t cost = EstimateAccessPs(queue_[i], now_ps, best);
    if (cost < best) {
      best = cost;
      pick = i;
    }
  }
  return pick;
}

void HddDevice::Impl::Start() {
  busy_ = true;
  if (disksim_order_) {
    disksim_order_->Started(current_.req.offset_bytes / 512, current_.req.size_bytes / 512, DisksimKey);
  }
  if (priority_order_) priority_order_->Started(current_.req.offset_bytes / 512);
  if (positioning_order_ &&
      positioning_order_->measure() == DisksimPositioningOrder::Measure::kCylindersFromLastBlock) {
    last_block_cylinder_ = geo_.Map((current_.req.offset_bytes + current_.req.size_bytes) / 512 - 1).cylinder;
  }
  Simulation& sim = *dev_.sim_;
  const int64_t now_ps = Ps(sim.now());
  const int64_t take_ps = TakePs(now_ps, current_.delivered_ps);
  media_done_ps_ = take_ps;
  bus_.Clear();
  host_spans_.clear();
  plan_.kind = BusPlan::Kind::kNone;
  seg_taken_ps_ = 0;
  // Straight into last_breakdown() unless a sneaky hit may complete before this one.
  const int64_t done_ps = Serve(current_, now_ps, take_ps, out_of_turn_.capacity() > 0 ? &current_bd_ : &dev_.last_);
  bus_.Disconnect(done_ps);
  done_ps_ = done_ps;
  if (p_.cache.preseek_level > 0) arm_release_ps_ = ArmReleasePs(current_.req.op == IoOp::kWrite, done_ps);
  sim.Schedule(std::max(CeilNs(done_ps), sim.now()), &dev_, kCompleteEvent);
}

void HddDevice::OnEvent(uint32_t kind, uint64_t arg) {
  if (kind == kOutOfTurnDoneEvent) {
    Impl::OutOfTurn& done = impl_->out_of_turn_[arg];
    done.in_flight = false;
    const DeviceRequest req = done.req;
    const SimTime submitted = done.submitted;
    last_ = done.bd;
    impl_->last_done_was_write_ = req.op == IoOp::kWrite;
    --in_device_;
    const SimTime now = sim_->now();
    stats_.OnLeave(now, in_device_, req.op == IoOp::kWrite, req.size_bytes, now - submitted);
    if (listener_ != nullptr) listener_->OnDeviceDone(req, submitted, now);
    if (!impl_->busy_) StartNext();
    SendWaitingOutOfTurn();  // disk_completion -> disk_check_bus
    return;
  }
  if (kind != kCompleteEvent) return;
  // A host command that took the bus meanwhile may have pushed the completion back.
  if (CeilNs(impl_->done_ps_) > sim_->now()) {
    sim_->Schedule(CeilNs(impl_->done_ps_), this, kCompleteEvent);
    return;
  }
  impl_->busy_ = false;
  // A prebuffered write-back write completed when its data were in: its turn, its
  // sectors written, ends here unseen by the host (and with no bus event, at which the
  // drive would look for waiting commands to serve out of turn).
  if (impl_->CompletedOutOfTurn(impl_->current_)) {
    StartNext();
    return;
  }
  // Copied: the listener may submit a command that starts at once and takes current_.
  const DeviceRequest req = impl_->current_.req;
  const SimTime submitted = impl_->current_.submitted;
  impl_->last_done_was_write_ = req.op == IoOp::kWrite;
  --in_device_;
  const SimTime now = sim_->now();
  stats_.OnLeave(now, in_device_, req.op == IoOp::kWrite, req.size_bytes, now - submitted);
  // The listener reads last_breakdown() of this command before the next one starts.
  if (impl_->out_of_turn_.capacity() > 0) last_ = impl_->current_bd_;
  if (params_.cache.sneaky_full_read_hits) ClaimSegmentOfNext();
  if (listener_ != nullptr) listener_->OnDeviceDone(req, submitted, now);
  if (!impl_->busy_) StartNext();
  SendWaitingOutOfTurn();  // disk_completion -> disk_check_bus, the next command started
}

}  // namespace ziosim
