#include "models/device/ssd.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "sim/core/status.h"

namespace ziosim {
namespace {

constexpr int64_t kSectorBytes = 512;

[[noreturn]] void Invalid(const SsdParams& p, const std::string& field, const std::string& what) {
  const std::string& where = p.source.empty() ? p.name : p.source;
  throw InputError(where + ": ssd." + field + ": " + what);
}

void RequirePositive(const SsdParams& p, const std::string& field, double value) {
  if (!(value > 0)) Invalid(p, field, "must be positive (got " + std::to_string(value) + ")");
}

void RequireNonNegative(const SsdParams& p, const std::string& field, double value) {
  if (!(value >= 0)) Invalid(p, field, "must not be negative (got " + std::to_string(value) + ")");
}

}  // namespace

void SsdParams::Validate() const {
  RequirePositive(*this, "capacity_bytes", static_cast<double>(capacity_bytes));
  if (capacity_bytes % kSectorBytes != 0) Invalid(*this, "capacity_bytes", "must be a multiple of 512");
  RequirePositive(*this, "queue_depth", queue_depth);
  RequirePositive(*this, "channels", channels);
  RequirePositive(*this, "dies_per_channel", dies_per_channel);
  RequirePositive(*this, "page_bytes", static_cast<double>(page_bytes));
  if (page_bytes % kSectorBytes != 0) Invalid(*this, "page_bytes", "must be a multiple of 512");
  RequirePositive(*this, "read_page_ns", static_cast<double>(read_page_ns));
  RequirePositive(*this, "program_page_ns", static_cast<double>(program_page_ns));
  RequirePositive(*this, "channel_mb_s", channel_mb_s);
  RequirePositive(*this, "controller_cores", controller_cores);
  RequireNonNegative(*this, "controller_overhead_ns", static_cast<double>(controller_overhead_ns));
  RequirePositive(*this, "interface_mb_s", interface_mb_s);
  RequireNonNegative(*this, "interface_command_ns", static_cast<double>(interface_command_ns));
}

double SsdPeakReadMbS(const SsdParams& p) {
  const double page_move_ns = static_cast<double>(p.page_bytes) * 1e3 / p.channel_mb_s;
  const double die_cycle_ns = static_cast<double>(p.read_page_ns) + page_move_ns;
  const double dies_mb_s = p.dies() * static_cast<double>(p.page_bytes) * 1e3 / die_cycle_ns;
  return std::min({p.interface_mb_s, p.channels * p.channel_mb_s, dies_mb_s});
}

void SsdDevice::FixedRing::Push(int item) {
  if (count_ == items_.size()) throw std::logic_error("internal error: SSD queue overflow");
  items_[(head_ + count_) % items_.size()] = item;
  ++count_;
}

int SsdDevice::FixedRing::Pop() {
  const int item = items_[head_];
  head_ = (head_ + 1) % items_.size();
  --count_;
  return item;
}

SsdDevice::SsdDevice(Simulation* sim, std::string name, SsdParams params)
    : Device(sim, std::move(name)),
      params_(Validated(std::move(params))),
      commands_(static_cast<size_t>(params_.queue_depth)),
      free_slots_(params_.queue_depth),
      controller_queue_(params_.queue_depth),
      jobs_(static_cast<size_t>(params_.queue_depth) * static_cast<size_t>(params_.dies())),
      link_queue_(params_.queue_depth) {
  for (int slot = 0; slot < params_.queue_depth; ++slot) free_slots_.Push(slot);
  dies_.reserve(static_cast<size_t>(params_.dies()));
  for (int d = 0; d < params_.dies(); ++d) dies_.emplace_back(params_.queue_depth);
  channels_.reserve(static_cast<size_t>(params_.channels));
  for (int c = 0; c < params_.channels; ++c) channels_.emplace_back(params_.dies_per_channel);
}

SsdParams SsdDevice::Validated(SsdParams params) {
  // Checked before any array is sized from it.
  params.Validate();
  return params;
}

SimTime SsdDevice::TransferNs(int64_t bytes, double mb_s) {
  // MB/s is 10^6 B/s, so bytes / (MB/s) is in microseconds; x1000 gives ns.
  return static_cast<SimTime>(std::llround(static_cast<double>(bytes) * 1e3 / mb_s));
}

int64_t SsdDevice::RequestedBytesOfPage(const Command& c, int64_t page) const {
  const int64_t start = std::max(page * params_.page_bytes, c.req.offset_bytes);
  const int64_t end = std::min((page + 1) * params_.page_bytes, c.req.offset_bytes + c.req.size_bytes);
  return end - start;
}

void SsdDevice::Submit(const DeviceRequest& req) {
  CheckRequest(req);
  const int slot = free_slots_.Pop();
  Command& c = commands_[slot];
  c = Command{};
  c.req = req;
  c.submitted = sim_->now();
  ++in_device_;
  stats_.OnEnter(sim_->now(), in_device_);
  controller_queue_.Push(slot);
  StartController();
}

void SsdDevice::OnEvent(uint32_t kind, uint64_t arg) {
  const int index = static_cast<int>(arg);
  switch (kind) {
    case kControllerDone: OnControllerDone(index); break;
    case kPageRead: RequestChannel(index); break;
    case kChannelDone: OnChannelDone(index); break;
    case kPageProgrammed: OnPageProgrammed(index); break;
    case kLinkDone: OnLinkDone(index); break;
    default: throw std::logic_error("internal error: unknown SSD event " + std::to_string(kind));
  }
}

void SsdDevice::StartController() {
  while (controller_busy_ < params_.controller_cores && !controller_queue_.empty()) {
    ++controller_busy_;
    sim_->ScheduleIn(params_.controller_overhead_ns, this, kControllerDone,
                     static_cast<uint64_t>(controller_queue_.Pop()));
  }
}

void SsdDevice::OnControllerDone(int cmd) {
  --controller_busy_;
  StartController();
  Command& c = commands_[cmd];
  if (c.req.op == IoOp::kRead) {
    SpreadOverDies(cmd);
  } else {
    // A write's data must cross the host link before any page can be programmed.
    c.ready_bytes = c.req.size_bytes;
    OfferToLink(cmd);
  }
}

void SsdDevice::SpreadOverDies(int cmd) {
  Command& c = commands_[cmd];
  const int64_t dies = static_cast<int64_t>(dies_.size());
  const int64_t first_page = c.req.offset_bytes / params_.page_bytes;
  const int64_t last_page = (c.req.offset_bytes + c.req.size_bytes - 1) / params_.page_bytes;
  const int64_t pages = last_page - first_page + 1;
  c.pages_left = pages;
  // Pages k, k + dies, ... of the command share a die; one job per die covers them all.
  for (int64_t k = 0; k < std::min(pages, dies); ++k) {
    const int64_t page = first_page + k;
    const int die = static_cast<int>(page % dies);
    JobOf(cmd, die) = DieJob{page, (pages - k + dies - 1) / dies};
    dies_[die].jobs.Push(cmd);
    StartDie(die);
  }
}

void SsdDevice::StartDie(int die) {
  Die& d = dies_[die];
  if (d.busy || d.jobs.empty()) return;
  const int cmd = d.jobs.front();
  const Command& c = commands_[cmd];
  d.busy = true;
  d.page_bytes = RequestedBytesOfPage(c, JobOf(cmd, die).next_page);
  if (c.req.op == IoOp::kRead) {
    sim_->ScheduleIn(params_.read_page_ns, this, kPageRead, static_cast<uint64_t>(die));
  } else {
    RequestChannel(die);
  }
}

void SsdDevice::RequestChannel(int die) {
  const int channel = ChannelOf(die);
  channels_[channel].waiting.Push(die);
  StartChannel(channel);
}

void SsdDevice::StartChannel(int channel) {
  Channel& ch = channels_[channel];
  if (ch.moving_die >= 0 || ch.waiting.empty()) return;
  ch.moving_die = ch.waiting.Pop();
  sim_->ScheduleIn(TransferNs(dies_[ch.moving_die].page_bytes, params_.channel_mb_s), this, kChannelDone,
                   static_cast<uint64_t>(channel));
}

void SsdDevice::OnChannelDone(int channel) {
  Channel& ch = channels_[channel];
  const int die = ch.moving_die;
  ch.moving_die = -1;
  const int cmd = dies_[die].jobs.front();
  Command& c = commands_[cmd];
  if (c.req.op == IoOp::kRead) {
    c.ready_bytes += dies_[die].page_bytes;
    FinishDiePage(die);
    OfferToLink(cmd);
  } else {
    // The die keeps the page in its register while it programs it.
    sim_->ScheduleIn(params_.program_page_ns, this, kPageProgrammed, static_cast<uint64_t>(die));
  }
  StartChannel(channel);
}

void SsdDevice::OnPageProgrammed(int die) {
  const int cmd = dies_[die].jobs.front();
  FinishDiePage(die);
  if (--commands_[cmd].pages_left == 0) Complete(cmd);
}

void SsdDevice::FinishDiePage(int die) {
  Die& d = dies_[die];
  DieJob& job = JobOf(d.jobs.front(), die);
  job.next_page += static_cast<int64_t>(dies_.size());
  if (--job.pages_left == 0) d.jobs.Pop();
  d.busy = false;
  StartDie(die);
}

void SsdDevice::OfferToLink(int cmd) {
  // A command already moving data picks up what arrived meanwhile when its transfer ends.
  Command& c = commands_[cmd];
  if (c.link != LinkState::kIdle) return;
  c.link = LinkState::kQueued;
  link_queue_.Push(cmd);
  StartLink();
}

void SsdDevice::StartLink() {
  if (link_cmd_ >= 0 || link_queue_.empty()) return;
  link_cmd_ = link_queue_.Pop();
  Command& c = commands_[link_cmd_];
  c.link = LinkState::kMoving;
  link_bytes_ = c.ready_bytes;
  c.ready_bytes = 0;
  SimTime ns = TransferNs(link_bytes_, params_.interface_mb_s);
  // The command's protocol exchange goes with its last data (a write sends all at once).
  const bool last = c.req.op == IoOp::kWrite || c.sent_bytes + link_bytes_ == c.req.size_bytes;
  if (last) ns += params_.interface_command_ns;
  sim_->ScheduleIn(ns, this, kLinkDone, static_cast<uint64_t>(link_cmd_));
}

void SsdDevice::OnLinkDone(int cmd) {
  Command& c = commands_[cmd];
  link_cmd_ = -1;
  c.link = LinkState::kIdle;
  if (c.req.op == IoOp::kWrite) {
    SpreadOverDies(cmd);
  } else {
    c.sent_bytes += link_bytes_;
    if (c.sent_bytes == c.req.size_bytes) {
      Complete(cmd);
    } else if (c.ready_bytes > 0) {
      OfferToLink(cmd);
    }
  }
  StartLink();
}

void SsdDevice::Complete(int cmd) {
  const DeviceRequest req = commands_[cmd].req;
  const SimTime submitted = commands_[cmd].submitted;
  const SimTime now = sim_->now();
  --in_device_;
  stats_.OnLeave(now, in_device_, req.op == IoOp::kWrite, req.size_bytes, now - submitted);
  free_slots_.Push(cmd);
  if (listener_ != nullptr) listener_->OnDeviceDone(req, submitted, now);
}

}  // namespace ziosim
