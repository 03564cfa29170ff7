#include "sim/workload/io_log.h"

#include "sim/core/status.h"

namespace ziosim {

IoLog::IoLog(const std::string& path) : path_(path), tmp_(path + ".tmp") {
  file_ = std::fopen(tmp_.c_str(), "w");
  if (file_ == nullptr) throw InputError(path + ": cannot write the I/O log");
  std::fputs("queued_ns,issued_ns,done_ns,disk,offset,size,class,issued_offset,issued_size,mirror_child,mirror_reason\n",
             file_);
}

IoLog::~IoLog() {
  if (file_ != nullptr) {
    std::fclose(file_);
    std::remove(tmp_.c_str());
  }
}

void IoLog::OnLeafIoDone(const LeafVdev& leaf, const Zio& z, const Zio& issued, SimTime now) {
  static const char* kReason[] = {"", "policy", "only_readable", "fallback"};
  std::fprintf(file_, "%lld,%lld,%lld,%s,%lld,%lld,%s,%lld,%lld,%d,%s\n", static_cast<long long>(z.queued_ns),
               static_cast<long long>(issued.issued_ns), static_cast<long long>(now), leaf.name().c_str(),
               static_cast<long long>(z.offset), static_cast<long long>(z.size), ZioPriorityName(z.priority),
               static_cast<long long>(issued.offset), static_cast<long long>(issued.size), z.mirror_child,
               kReason[static_cast<int>(z.mirror_reason)]);
}

void IoLog::Commit() {
  std::fclose(file_);
  file_ = nullptr;
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) throw InputError(path_ + ": cannot write the I/O log");
}

}  // namespace ziosim
