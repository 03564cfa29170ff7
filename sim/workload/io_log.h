// The per-I/O log of a pool run (`--io-log F.csv`): one CSV line per zio a
// leaf completed, with when it was queued, issued to the device and done,
// where, its class, the device I/O that carried it (itself or an aggregate)
// and, on a mirror, which child read it and why. Cache fills of the vdev cache
// appear as the reads they are. Written to F.csv.tmp and moved into place by
// Commit(), so a failed run leaves no half-written log.
#ifndef ZIOSIM_SIM_WORKLOAD_IO_LOG_H_
#define ZIOSIM_SIM_WORKLOAD_IO_LOG_H_

#include <cstdio>
#include <string>

#include "sim/zfs/vdev/leaf_vdev.h"

namespace ziosim {

class IoLog : public LeafIoObserver {
 public:
  // Throws InputError if `path` cannot be written.
  explicit IoLog(const std::string& path);
  ~IoLog() override;
  IoLog(const IoLog&) = delete;
  IoLog& operator=(const IoLog&) = delete;

  void OnLeafIoDone(const LeafVdev& leaf, const Zio& z, const Zio& issued, SimTime now) override;
  // Moves the finished log into place. Throws InputError if it cannot.
  void Commit();

 private:
  std::string path_, tmp_;
  std::FILE* file_ = nullptr;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_IO_LOG_H_
