// A flash SSD, modelled as the resources a command passes through:
//
//   controller cores -> dies (tR) -> channels -> host link      (reads)
//   controller cores -> host link -> channels -> dies (tPROG)   (writes)
//
// A request is cut into flash pages by LBA; page n lives on die n mod dies
// (die d on channel d mod channels), so consecutive pages spread over all
// channels first, then over the dies of each channel. A die serves one page at
// a time and holds it in its register until the channel has moved it, so a
// busy channel also stalls its dies. Only the requested bytes of a page cross
// the channel and the host link. Every resource serves in arrival order.
//
// This gives the shapes that matter: QD1 latency is the sum of the stages;
// IOPS rises with queue depth until the dies, the channels, the controller or
// the host link saturates; MB/s rises with block size up to the link or
// channel limit. Garbage collection, the FTL's mapping misses and read retries
// are not modelled (reads of a preconditioned drive at steady state).
//
// All state lives in arrays sized by queue depth and die count at construction;
// a command allocates nothing.
#ifndef ZIOSIM_MODELS_DEVICE_SSD_H_
#define ZIOSIM_MODELS_DEVICE_SSD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "models/device/device.h"
#include "models/device/ssd_params.h"

namespace ziosim {

class SsdDevice final : public Device {
 public:
  // Throws InputError if `params` is inconsistent.
  SsdDevice(Simulation* sim, std::string name, SsdParams params);

  bool is_rotational() const override { return false; }
  int64_t capacity_bytes() const override { return params_.capacity_bytes; }
  int queue_depth() const override { return params_.queue_depth; }
  int in_device() const override { return in_device_; }
  void Submit(const DeviceRequest& req) override;
  void OnEvent(uint32_t kind, uint64_t arg) override;

  const SsdParams& params() const { return params_; }

 private:
  // A FIFO of small integers (command slots, die numbers) with a fixed capacity.
  class FixedRing {
   public:
    explicit FixedRing(int capacity) : items_(static_cast<size_t>(capacity)) {}
    bool empty() const { return count_ == 0; }
    int front() const { return items_[head_]; }
    void Push(int item);
    int Pop();

   private:
    std::vector<int> items_;
    size_t head_ = 0;
    size_t count_ = 0;
  };

  enum class LinkState : uint8_t { kIdle, kQueued, kMoving };

  struct Command {
    DeviceRequest req;
    SimTime submitted = 0;
    int64_t pages_left = 0;   // writes: pages not yet programmed
    int64_t ready_bytes = 0;  // bytes waiting for the host link (reads: in controller DRAM)
    int64_t sent_bytes = 0;   // reads: bytes delivered to the host
    LinkState link = LinkState::kIdle;
  };

  // The pages of one command that live on one die: first, first + dies, ...
  struct DieJob {
    int64_t next_page = 0;
    int64_t pages_left = 0;
  };

  struct Die {
    FixedRing jobs;           // command slots with pages on this die, in arrival order
    bool busy = false;
    int64_t page_bytes = 0;   // requested bytes of the page in service
    explicit Die(int queue_depth) : jobs(queue_depth) {}
  };

  struct Channel {
    FixedRing waiting;        // dies holding a page for this channel
    int moving_die = -1;
    explicit Channel(int dies_per_channel) : waiting(dies_per_channel) {}
  };

  enum EventKind : uint32_t { kControllerDone, kPageRead, kChannelDone, kPageProgrammed, kLinkDone };

  void StartController();
  void OnControllerDone(int cmd);
  void SpreadOverDies(int cmd);
  void StartDie(int die);
  void RequestChannel(int die);
  void StartChannel(int channel);
  void OnChannelDone(int channel);
  void OnPageProgrammed(int die);
  void FinishDiePage(int die);
  void OfferToLink(int cmd);
  void StartLink();
  void OnLinkDone(int cmd);
  void Complete(int cmd);

  int64_t RequestedBytesOfPage(const Command& c, int64_t page) const;
  DieJob& JobOf(int cmd, int die) { return jobs_[static_cast<size_t>(cmd) * dies_.size() + die]; }
  int ChannelOf(int die) const { return die % params_.channels; }
  static SimTime TransferNs(int64_t bytes, double mb_s);
  static SsdParams Validated(SsdParams params);

  SsdParams params_;
  std::vector<Command> commands_;  // indexed by slot, queue_depth of them
  FixedRing free_slots_;
  FixedRing controller_queue_;
  int controller_busy_ = 0;
  std::vector<DieJob> jobs_;  // [slot * dies + die]
  std::vector<Die> dies_;
  std::vector<Channel> channels_;
  FixedRing link_queue_;
  int link_cmd_ = -1;             // command whose data is on the host link
  int64_t link_bytes_ = 0;        // bytes of that transfer
  int in_device_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_SSD_H_
