// An optional NFSv3 front for `ziosim workload`: the client cuts each
// operation into rsize/wsize RPCs, sent one after the other (a single
// outstanding RPC per thread), each costing the network round trip plus its
// payload over the link. On the server a WRITE is stable (FILE_SYNC: the
// server makes it stable, i.e. zil_commit, before replying) unless the client
// sends UNSTABLE writes and a COMMIT later; an `async` export never makes
// anything stable (the server replies as if it had). Server CPU, the client
// cache and read-ahead are not modelled.
#ifndef ZIOSIM_SIM_WORKLOAD_NFS_FRONT_H_
#define ZIOSIM_SIM_WORKLOAD_NFS_FRONT_H_

#include <cstdint>
#include <string>

#include "sim/core/time.h"

namespace ziosim {

struct NfsFront {
  bool enabled = false;
  // Round trip of one RPC on a 2011 gigabit LAN with both network stacks
  // (estimated: ping ~0.1 ms plus RPC/XDR and nfsd dispatch).
  SimTime latency_ns = 200'000;
  // Payload rate of gigabit Ethernet: 125 MB/s less Ethernet/IP/TCP/RPC framing (estimated).
  int64_t bandwidth_bytes_s = 117'000'000;
  // Transfer sizes: 32 KiB, the Windows (Services for UNIX) NFS client's
  // default (estimated; Unix clients then negotiated up to 64K-1M).
  int64_t rsize = 32 << 10;
  int64_t wsize = 32 << 10;
  bool async_export = false;  // exported `async`: writes and COMMITs are never made stable
  bool unstable = false;      // the client sends UNSTABLE writes (COMMIT only on fsync/O_DSYNC)

  // Time one RPC carrying `payload_bytes` costs on the wire.
  SimTime RpcNs(int64_t payload_bytes) const {
    return latency_ns + payload_bytes * 1'000'000'000 / bandwidth_bytes_s;
  }
};

// "latency=200us,bw=117M,rsize=32K,wsize=32K,async,unstable" (any subset, any
// order; "" or "on" for the defaults). bw is bytes per second. InputError
// naming --nfs and the field otherwise.
NfsFront ParseNfsFront(const std::string& text);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_NFS_FRONT_H_
