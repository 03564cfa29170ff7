// A record reader run on a second thread, so that reading (and parsing) a file
// overlaps the simulation that consumes it. The consumer sees exactly the
// sequence the reader gives, in order, and an exception the reader throws at
// the record where it was thrown: a run reads the same with or without the
// thread, and a malformed line still fails when the run reaches it, after
// every record before it. Records travel in a few fixed batches (memory stays
// flat in the file's length), so the two threads meet once a batch, not once
// a record.
#ifndef ZIOSIM_SIM_CORE_BACKGROUND_READER_H_
#define ZIOSIM_SIM_CORE_BACKGROUND_READER_H_

#include <array>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace ziosim {

template <typename Record>
class BackgroundReader {
 public:
  // Fills its argument with the next record and returns true, or returns false
  // at the end; runs on the background thread only.
  using ReadFn = std::function<bool(Record&)>;

  explicit BackgroundReader(ReadFn read, size_t batch_records = kDefaultBatchRecords)
      : read_(std::move(read)), batch_records_(batch_records < 1 ? 1 : batch_records) {
    for (Batch& b : batches_) b.records.reserve(batch_records_);
    thread_ = std::thread([this] { Produce(); });
  }

  // Stops the reader, even in the middle of the file, and waits for it.
  ~BackgroundReader() {
    {
      const std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  BackgroundReader(const BackgroundReader&) = delete;
  BackgroundReader& operator=(const BackgroundReader&) = delete;

  // The next record, valid until the next call; null after the last one.
  // Rethrows the reader's exception in place of the record it failed to read.
  const Record* Next() {
    for (;;) {
      if (current_ != nullptr) {
        if (position_ < current_->records.size()) return &current_->records[position_++];
        if (current_->error) std::rethrow_exception(current_->error);
        if (current_->last) return nullptr;
        Release();
      }
      Acquire();
    }
  }

 private:
  // 4,096 records of a few dozen bytes: a batch stays in the consumer's L2
  // cache, and a handover costs far less than the records it carries.
  static constexpr size_t kDefaultBatchRecords = 4096;
  // Three batches: one being read, one being filled, one ready.
  static constexpr size_t kBatches = 3;

  struct Batch {
    std::vector<Record> records;
    std::exception_ptr error;  // thrown after records[] were read
    bool last = false;         // nothing follows this batch
  };

  // Background thread: fills batches in turn while a free one remains.
  void Produce() {
    for (size_t k = 0;; ++k) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_ || k - released_ < kBatches; });
        if (stop_) return;
      }
      Batch& b = batches_[k % kBatches];
      Fill(b);
      {
        const std::lock_guard<std::mutex> lock(mu_);
        ++filled_;
      }
      cv_.notify_all();
      if (b.last) return;
    }
  }

  void Fill(Batch& b) {
    b.records.clear();
    b.error = nullptr;
    b.last = false;
    try {
      Record r{};
      while (b.records.size() < batch_records_) {
        if (!read_(r)) {
          b.last = true;
          return;
        }
        b.records.push_back(r);
      }
    } catch (...) {
      b.error = std::current_exception();
      b.last = true;
    }
  }

  // Consumer: waits for the next filled batch and makes it current.
  void Acquire() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return filled_ > released_; });
    current_ = &batches_[released_ % kBatches];
    position_ = 0;
  }

  // Consumer: hands the current batch back to be filled again.
  void Release() {
    {
      const std::lock_guard<std::mutex> lock(mu_);
      ++released_;
    }
    current_ = nullptr;
    cv_.notify_all();
  }

  ReadFn read_;
  const size_t batch_records_;
  std::array<Batch, kBatches> batches_;
  std::mutex mu_;
  std::condition_variable cv_;
  size_t filled_ = 0;    // batches filled so far (guarded by mu_)
  size_t released_ = 0;  // batches the consumer has finished (guarded by mu_)
  bool stop_ = false;    // guarded by mu_
  // The consumer's own state.
  const Batch* current_ = nullptr;
  size_t position_ = 0;
  std::thread thread_;  // started last, once everything it uses exists
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_BACKGROUND_READER_H_
