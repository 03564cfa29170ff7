// The pool state of pool_state.h: grammar, OpenZFS's FRAG metric, and the
// old-data profile.
//
// The metric (verified in module/zfs/metaslab.c at zfs-0.6.5.11, zfs-0.7.0,
// zfs-2.1.11 and zfs-2.2.0: the same in all four):
//  * metaslab_set_fragmentation: for each bucket i of the space map histogram
//    (free segments of 2^(i+sm_shift) .. 2^(i+sm_shift+1)-1 bytes) space =
//    count << (i + sm_shift) (the bucket's floor, not the segments' bytes),
//    fragmentation = sum(space * zfs_frag_table[min(i + sm_shift - 9, 15)]) /
//    sum(space), integer division; 0 for a metaslab that was never allocated
//    (ms_sm == NULL) and for a full one (total 0).
//  * metaslab_group_fragmentation: the plain mean of the vdev's metaslabs
//    (integer division; invalid, i.e. without the spacemap_histogram feature,
//    when half of them or more have no figure: not modelled, every metaslab has one).
//  * metaslab_class_fragmentation: sum(group frag x metaslab space of the
//    group) / class space, integer division: the FRAG column of `zpool list`.
//
// The profile (a modelling choice, not OpenZFS code; docs/allocation-model.md):
//  * Old data was written through the allocator, which fills each vdev from
//    its low metaslabs up (reference 4.3), and part of it was freed since,
//    punching holes in the metaslabs it had filled. So old data lies in the
//    low `touched` metaslabs of every top-level vdev, the same share of each
//    (the rotor spreads writes evenly, mg_bias keeps vdevs evenly full), and
//    the metaslabs above were never allocated (their FRAG is 0).
//  * frag = 0: nothing was freed; the old data is contiguous from offset 0
//    (whole metaslabs, then a part of one).
//  * frag > 0: the share of the touched metaslabs' space that is free is
//    taken as frag/100 (so the touched region is cap / (1 - frag/100) of the
//    vdev, the whole vdev when that is 1 or more: at cap=80,frag=50 every
//    metaslab holds old data). This coupling is the modelling choice: more
//    fragmentation, more of the vdev touched by the churn that made it.
//    When the metaslabs' FRAG cannot reach the ask with that many touched
//    metaslabs (their mean over all metaslabs must be frag), more are touched.
//  * The free segments of a touched metaslab are spread evenly (in space)
//    over a window of six power-of-two classes, the width of the
//    fragmented:PCT preset's runs (64 KiB .. 4 MiB), slid down (and narrowed
//    at the smallest class, the allocation quantum) until the metaslab's
//    FRAG, computed with the metric above, is the figure that makes the
//    vdev's mean equal frag. Every segment is the smallest multiple of the
//    quantum in its class; the used runs between them are at least a quantum
//    and drawn at random (metaslab_allocator.cc).
#include "sim/zfs/pool_state.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "sim/core/bytes.h"
#include "sim/core/status.h"
#include "sim/core/text.h"

namespace ziosim {
namespace {

constexpr int kMaxCap = 95;
// Width, in power-of-two classes, of the window the holes are spread over
// (the fragmented:PCT preset's free runs span 64 KiB .. 4 MiB).
constexpr double kWindowClasses = 6.0;
// Largest hole class considered (1 GiB); zfs_frag_table gives 0 from 16 MiB on.
constexpr int kTopClass = 30;

[[noreturn]] void Bad(const std::string& label, std::string_view text, const std::string& why) {
  throw InputError(label + ": '" + std::string(text) + "': " + why +
                   "; the form is cap=PCT[,frag=PCT] (cap 0-95, frag 0-100, as zpool list's CAP and FRAG)");
}

int TableWeight(int b) { return kZfsFragTable[static_cast<size_t>(std::clamp(b - 9, 0, 15))]; }

// The holes of one touched metaslab with `free_bytes` free: the window [hi - 6, hi) of classes,
// cut at `lo_class`, each class its share of the histogram space.
SegmentHistogram HolesFor(double hi, int lo_class, int64_t free_bytes, int64_t quantum, SegmentHistogram* bytes) {
  SegmentHistogram count{};
  const double lo = std::max<double>(lo_class, hi - kWindowClasses);
  const double width = hi - lo;
  double per_space_bytes = 0;  // real bytes per byte of histogram space
  std::array<double, 64> share{};
  for (int b = lo_class; b <= kTopClass; ++b) {
    const double overlap = std::min<double>(b + 1, hi) - std::max<double>(b, lo);
    if (overlap <= 0) continue;
    share[static_cast<size_t>(b)] = overlap / width;
    const int64_t s = RoundUp(int64_t{1} << b, quantum);
    (*bytes)[static_cast<size_t>(b)] = s;
    per_space_bytes += share[static_cast<size_t>(b)] * static_cast<double>(s) / std::ldexp(1.0, b);
  }
  const double space = static_cast<double>(free_bytes) / per_space_bytes;
  int64_t left = free_bytes;
  int smallest = -1;
  for (int b = lo_class; b <= kTopClass; ++b) {
    if (share[static_cast<size_t>(b)] <= 0) continue;
    if (smallest < 0) smallest = b;
    count[static_cast<size_t>(b)] =
        static_cast<int64_t>(std::floor(share[static_cast<size_t>(b)] * space / std::ldexp(1.0, b)));
    left -= count[static_cast<size_t>(b)] * (*bytes)[static_cast<size_t>(b)];
  }
  // What the rounding down left over: one more hole in each class that had a fraction of one
  // (largest first) while it fits, then holes of the smallest class; less than one of those
  // stays old data.
  for (int b = kTopClass; b >= lo_class && smallest >= 0; --b) {
    const size_t k = static_cast<size_t>(b);
    if (share[k] <= 0 || (*bytes)[k] > left) continue;
    const double exact = share[k] * space / std::ldexp(1.0, b);
    if (exact > static_cast<double>(count[k])) {
      ++count[k];
      left -= (*bytes)[k];
    }
  }
  if (smallest >= 0) {
    const size_t k = static_cast<size_t>(smallest);
    count[k] += left / (*bytes)[k];
  }
  return count;
}

}  // namespace

PoolState ParsePoolState(std::string_view text, const std::string& label) {
  PoolState s;
  if (text.empty()) return s;
  bool have_cap = false;
  bool have_frag = false;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t comma = std::min(text.find(',', pos), text.size());
    const std::string_view item = text.substr(pos, comma - pos);
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) Bad(label, text, "'" + std::string(item) + "' is not KEY=PCT");
    const std::string_view key = item.substr(0, eq);
    std::string_view value = item.substr(eq + 1);
    if (!value.empty() && value.back() == '%') value.remove_suffix(1);
    int64_t v = 0;
    if (!ParseInt64(value, &v)) Bad(label, text, "'" + std::string(item.substr(eq + 1)) + "' is not a whole percent");
    if (key == "cap") {
      if (have_cap) Bad(label, text, "cap is given twice");
      if (v < 0 || v > kMaxCap) Bad(label, text, "cap must be 0..95 (the allocator's model of a fuller pool is not kept)");
      have_cap = true;
      s.cap_pct = static_cast<int>(v);
    } else if (key == "frag") {
      if (have_frag) Bad(label, text, "frag is given twice");
      if (v < 0 || v > 100) Bad(label, text, "frag must be 0..100");
      have_frag = true;
      s.frag_pct = static_cast<int>(v);
    } else {
      Bad(label, text, "unknown key '" + std::string(key) + "'");
    }
    pos = comma + 1;
  }
  if (s.cap_pct == 0 && s.frag_pct > 0) {
    Bad(label, text, "frag=" + std::to_string(s.frag_pct) +
                         " needs old data: at cap=0 every metaslab is empty, and an empty metaslab's FRAG is 0");
  }
  s.set = true;
  s.text = "cap=" + std::to_string(s.cap_pct) + ",frag=" + std::to_string(s.frag_pct);
  return s;
}

int64_t MetaslabFragmentation(const SegmentHistogram& h, bool pristine) {
  if (pristine) return 0;
  uint64_t frag = 0;
  uint64_t total = 0;
  for (size_t b = 0; b < h.size(); ++b) {
    if (h[b] == 0) continue;
    const uint64_t space = static_cast<uint64_t>(h[b]) << b;
    total += space;
    frag += space * static_cast<uint64_t>(TableWeight(static_cast<int>(b)));
  }
  if (total > 0) frag /= total;
  return static_cast<int64_t>(frag);
}

int64_t GroupFragmentation(const std::vector<int64_t>& metaslab_frag) {
  if (metaslab_frag.empty()) return 0;
  int64_t sum = 0;
  for (int64_t f : metaslab_frag) sum += f;
  return sum / static_cast<int64_t>(metaslab_frag.size());
}

int64_t ClassFragmentation(const std::vector<int64_t>& group_frag, const std::vector<int64_t>& group_space) {
  __int128 sum = 0;
  __int128 space = 0;
  for (size_t i = 0; i < group_frag.size(); ++i) {
    sum += static_cast<__int128>(group_frag[i]) * group_space[i];
    space += group_space[i];
  }
  return space > 0 ? static_cast<int64_t>(sum / space) : 0;
}

int64_t OldDataPlan::holes() const {
  int64_t n = 0;
  for (int64_t c : hole_count) n += c;
  return n;
}

int64_t OldDataPlan::free_bytes() const {
  int64_t n = 0;
  for (size_t b = 0; b < hole_count.size(); ++b) n += hole_count[b] * hole_bytes[b];
  return n;
}

OldDataPlan PlanOldData(const PoolState& state, int64_t ms_count, int ms_shift, int64_t quantum,
                        const std::string& label) {
  OldDataPlan plan;
  if (!state.set || state.cap_pct == 0 || ms_count <= 0) return plan;
  const int64_t ms_size = int64_t{1} << ms_shift;
  const int64_t quanta_per_ms = ms_size / quantum;
  // CAP % of the vdev's metaslab space, in whole quanta, rounded up (zpool list's CAP is
  // allocated x 100 / size, rounded down: so it shows the ask).
  const int64_t old_quanta = static_cast<int64_t>(
      (static_cast<__int128>(quanta_per_ms) * ms_count * state.cap_pct + 99) / 100);
  const int64_t old_bytes = old_quanta * quantum;
  if (state.frag_pct == 0) {
    plan.touched = old_bytes / ms_size;
    plan.used_bytes = ms_size;
    plan.partial_used = old_bytes - plan.touched * ms_size;
    return plan;
  }
  const std::string where = "frag=" + std::to_string(state.frag_pct) + " at cap=" + std::to_string(state.cap_pct);
  const int lo_class = std::bit_width(static_cast<uint64_t>(quantum)) - 1;  // the quantum's class
  const double touched_share = std::min(1.0, state.cap_pct / (100.0 - state.frag_pct));
  int64_t touched = std::clamp<int64_t>(std::llround(touched_share * static_cast<double>(ms_count)), 1, ms_count);
  for (; touched <= ms_count; ++touched) {
    // Old data per touched metaslab, in whole quanta (rounded up: CAP is met to within touched
    // quanta, and the holes' leftover bytes below add a little more).
    const int64_t used = (old_quanta + touched - 1) / touched * quantum;
    if (used >= ms_size) continue;  // no room for free space: touch more metaslabs
    const int64_t free = ms_size - used;
    // The metaslabs' figure that makes the vdev's mean (over all ms_count) equal frag:
    // floor(touched x f / ms_count) == frag.
    const int64_t need = (static_cast<int64_t>(state.frag_pct) * ms_count + touched - 1) / touched;
    if (need > TableWeight(lo_class) || need > 100) continue;
    // Slide the window: the metaslab's figure falls as `hi` grows.
    auto frag_of = [&](double hi, SegmentHistogram* count, SegmentHistogram* bytes) {
      *bytes = {};
      *count = HolesFor(hi, lo_class, free, quantum, bytes);
      int64_t n = 0;
      for (int64_t c : *count) n += c;
      return n == 0 ? int64_t{-1} : MetaslabFragmentation(*count, false);
    };
    double lo_hi = lo_class + 1.0;  // frag_of(lo_hi) is the most a metaslab can have
    double hi_hi = kTopClass + 1.0;
    SegmentHistogram count{}, bytes{};
    if (frag_of(lo_hi, &count, &bytes) < need) continue;
    for (int i = 0; i < 60; ++i) {  // largest hi whose figure is still >= need
      const double mid = 0.5 * (lo_hi + hi_hi);
      if (frag_of(mid, &count, &bytes) >= need) {
        lo_hi = mid;
      } else {
        hi_hi = mid;
      }
    }
    const int64_t got = frag_of(lo_hi, &count, &bytes);
    if (got < need || touched * got / ms_count != state.frag_pct) continue;
    plan.touched = touched;
    plan.hole_count = count;
    plan.hole_bytes = bytes;
    plan.used_bytes = ms_size - plan.free_bytes();  // what the holes leave over stays old data
    if (plan.used_bytes < (plan.holes() + 1) * quantum) {
      throw InputError(label + ": " + where + " cannot be laid out on this pool: " + std::to_string(plan.holes()) +
                       " free segments per metaslab need at least a " + std::to_string(quantum) +
                       "-byte run of old data between each two");
    }
    return plan;
  }
  throw InputError(label + ": " + where + " is out of reach on this pool: free segments are at least the " +
                   std::to_string(quantum) + "-byte allocation quantum, whose zfs_frag_table weight is " +
                   std::to_string(TableWeight(lo_class)) + ", and that much old data leaves too little free space; "
                   "ask for a lower frag or a higher cap");
}

}  // namespace ziosim
