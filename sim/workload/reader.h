// One `dd` reading a file through the DMU (with skip= and count=): read()
// after read() over its range until the range is done; a random reader picks
// bs-aligned offsets of the range uniformly from its own random stream. The
// readers workload runs N of them; a scrub runs them beside the scan.
#ifndef ZIOSIM_SIM_WORKLOAD_READER_H_
#define ZIOSIM_SIM_WORKLOAD_READER_H_

#include <algorithm>
#include <cstdint>
#include <string>

#include "sim/core/invariants.h"
#include "sim/core/random.h"
#include "sim/core/simulation.h"
#include "sim/zfs/dmu.h"

namespace ziosim {

// The bytes of a file one reader reads: [first, first + bytes).
struct ReadRange {
  int64_t first = 0;
  int64_t bytes = 0;
};

class Reader : public ReadCaller {
 public:
  Reader(Dmu* dmu, Simulation* sim, int index, int file, ReadRange range, int64_t bs, bool random, uint64_t seed)
      : dmu_(dmu), sim_(sim), index_(index), file_(file), first_(range.first), file_size_(range.bytes), bs_(bs),
        random_(random), rng_(seed, "reader" + std::to_string(index)) {}

  void Start() {
    start_ns_ = sim_->now();
    Next();
  }
  void OnReadDone(uint64_t, int64_t bytes) override {
    ++returned_;
    done_bytes_ += bytes;
    if (done_bytes_ >= file_size_) {
      end_ns_ = sim_->now();
      return;
    }
    Next();
  }
  int64_t bytes() const { return done_bytes_; }
  SimTime elapsed_ns() const { return end_ns_ - start_ns_; }
  bool finished() const { return done_bytes_ >= file_size_; }
  // Every read() returned once, with all the bytes it asked for.
  void CheckDone() const {
    const std::string what = "reader " + std::to_string(index_);
    CheckCompletedOnce(what + ": read() calls", calls_, returned_);
    CheckBytesDelivered(what, asked_bytes_, done_bytes_);
  }

 private:
  void Next() {
    int64_t offset = done_bytes_;
    if (random_) offset = rng_.UniformInt(0, (file_size_ - 1) / bs_) * bs_;
    const int64_t length = std::min(bs_, file_size_ - offset);
    ++calls_;
    asked_bytes_ += length;
    dmu_->Read(file_, first_ + offset, length, this, static_cast<uint64_t>(index_));
  }

  Dmu* dmu_;
  Simulation* sim_;
  int index_, file_;
  int64_t first_;
  int64_t file_size_, bs_;  // file_size_: the bytes of the range
  bool random_;
  RandomStream rng_;
  int64_t done_bytes_ = 0;
  int64_t asked_bytes_ = 0;
  int64_t calls_ = 0, returned_ = 0;
  SimTime start_ns_ = 0, end_ns_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_READER_H_
