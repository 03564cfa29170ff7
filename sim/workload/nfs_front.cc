#include "sim/workload/nfs_front.h"

#include "sim/core/status.h"
#include "sim/core/text.h"
#include "sim/core/units.h"
#include "sim/workload/fio_job.h"

namespace ziosim {
namespace {

// NFSv3 servers of the time capped transfers at 1 MiB (FreeBSD NFS_MAXBSIZE 64K
// then, Solaris 1M); at least one 512-byte sector.
constexpr int64_t kMaxTransfer = 1 << 20;

int64_t ParseTransfer(const std::string& value, const std::string& field) {
  const int64_t v = ParsePositiveSize(value, field);
  if (v < 512 || v > kMaxTransfer || v % 512 != 0) {
    throw InputError(field + ": must be a multiple of 512 from 512 to 1M (got " + value + ")");
  }
  return v;
}

}  // namespace

NfsFront ParseNfsFront(const std::string& text) {
  NfsFront nfs;
  nfs.enabled = true;
  if (Trim(text).empty() || Trim(text) == "on") return nfs;
  std::string_view rest = text;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string item(Trim(rest.substr(0, comma)));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    const std::string field = "--nfs " + key;
    if (key == "async" && eq == std::string::npos) {
      nfs.async_export = true;
    } else if (key == "unstable" && eq == std::string::npos) {
      nfs.unstable = true;
    } else if (key == "latency" && !value.empty()) {
      nfs.latency_ns = ParseDuration(value, field);
    } else if (key == "bw" && !value.empty()) {
      nfs.bandwidth_bytes_s = ParsePositiveSize(value, field);
    } else if (key == "rsize" && !value.empty()) {
      nfs.rsize = ParseTransfer(value, field);
    } else if (key == "wsize" && !value.empty()) {
      nfs.wsize = ParseTransfer(value, field);
    } else {
      throw InputError("--nfs: \"" + item +
                       "\" is not one of latency=TIME, bw=BYTES_PER_S, rsize=SIZE, wsize=SIZE, async, unstable");
    }
  }
  return nfs;
}

}  // namespace ziosim
