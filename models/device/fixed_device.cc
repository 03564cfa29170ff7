#include "models/device/fixed_device.h"

#include <algorithm>
#include <cmath>
#include <charconv>
#include <utility>

#include "sim/core/status.h"
#include "sim/core/units.h"

namespace ziosim {
namespace {

constexpr std::string_view kKeys = "latency=TIME, bandwidth=RATE, lanes=N, rotational=yes|no, capacity=SIZE, depth=N";

[[noreturn]] void Bad(std::string_view key, const std::string& what) {
  throw InputError("fixed: " + std::string(key) + ": " + what);
}

int ParseCount(std::string_view key, std::string_view value, int most) {
  int n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || n < 1 || n > most) {
    Bad(key, "\"" + std::string(value) + "\" is not a whole number from 1 to " + std::to_string(most));
  }
  return n;
}

bool ParseYesNo(std::string_view key, std::string_view value) {
  if (value == "yes" || value == "1" || value == "true") return true;
  if (value == "no" || value == "0" || value == "false") return false;
  Bad(key, "\"" + std::string(value) + "\" is not yes or no");
}

}  // namespace

SimTime FixedDeviceParams::ServiceNs(int64_t size_bytes) const {
  return latency_ns + static_cast<SimTime>(std::llround(static_cast<double>(size_bytes) * 1e9 / bandwidth_bytes_s));
}

FixedDeviceParams ParseFixedDevice(std::string_view text) {
  if (!text.starts_with(kFixedDevicePrefix)) Bad("spelling", "expected fixed:" + std::string(kKeys));
  FixedDeviceParams p;
  bool have_latency = false;
  bool have_bandwidth = false;
  std::string_view rest = text.substr(kFixedDevicePrefix.size());
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const size_t eq = item.find('=');
    const std::string_view key = item.substr(0, eq);
    if (eq == std::string_view::npos || eq + 1 == item.size()) {
      Bad(key.empty() ? "spelling" : key, "expected KEY=VALUE (" + std::string(kKeys) + ")");
    }
    const std::string_view value = item.substr(eq + 1);
    const std::string field = "fixed: " + std::string(key);
    if (key == "latency") {
      p.latency_ns = ParseDuration(value, field);
      have_latency = true;
    } else if (key == "bandwidth") {
      p.bandwidth_bytes_s = ParseRate(value, field);
      have_bandwidth = true;
    } else if (key == "lanes") {
      p.lanes = ParseCount(key, value, 1024);
    } else if (key == "depth") {
      p.queue_depth = ParseCount(key, value, 1 << 16);
    } else if (key == "rotational") {
      p.rotational = ParseYesNo(key, value);
    } else if (key == "capacity") {
      p.capacity_bytes = ParsePositiveSize(value, field);
      if (p.capacity_bytes % 512 != 0) Bad(key, "must be a multiple of 512 bytes");
    } else {
      Bad(key, "unknown key (" + std::string(kKeys) + ")");
    }
  }
  if (!have_latency) Bad("latency", "missing (e.g. latency=4ms)");
  if (!have_bandwidth) Bad("bandwidth", "missing (e.g. bandwidth=150MB/s)");
  return p;
}

FixedDevice::FixedDevice(Simulation* sim, std::string name, const FixedDeviceParams& params)
    : Device(sim, std::move(name)),
      params_(params),
      lane_free_at_(static_cast<size_t>(params.lanes), 0),
      slots_(static_cast<size_t>(params.queue_depth)) {
  free_slots_.reserve(slots_.size());
  for (int s = params.queue_depth - 1; s >= 0; --s) free_slots_.push_back(s);
}

void FixedDevice::Submit(const DeviceRequest& req) {
  CheckRequest(req);
  const SimTime now = sim_->now();
  // FIFO over the lanes: the command waits for the lane that frees first.
  auto lane = std::min_element(lane_free_at_.begin(), lane_free_at_.end());
  const SimTime start = std::max(now, *lane);
  *lane = start + params_.ServiceNs(req.size_bytes);
  const int slot = free_slots_.back();
  free_slots_.pop_back();
  slots_[static_cast<size_t>(slot)] = Slot{req, now};
  ++in_device_;
  stats_.OnEnter(now, in_device_);
  sim_->Schedule(*lane, this, 0, static_cast<uint64_t>(slot));
}

void FixedDevice::OnEvent(uint32_t /*kind*/, uint64_t arg) {
  const Slot done = slots_[arg];
  free_slots_.push_back(static_cast<int>(arg));
  --in_device_;
  const SimTime now = sim_->now();
  stats_.OnLeave(now, in_device_, done.req.op == IoOp::kWrite, done.req.size_bytes, now - done.submitted);
  if (listener_ != nullptr) listener_->OnDeviceDone(done.req, done.submitted, now);
}

}  // namespace ziosim
