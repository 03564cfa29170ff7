#include "sim/workload/fio_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ziosim {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kFioVersion = "ziosim-fio";

Json Options(const FioOptions& options) {
  Json o = Json::object();
  for (const auto& [key, value] : options) o[key] = value;
  return o;
}

// {min, max, mean, stddev, N} as fio prints a latency.
Json LatencyJson(const FioLatency& l) {
  Json j;
  j["min"] = l.min_ns();
  j["max"] = l.max_ns();
  j["mean"] = l.mean_ns();
  j["stddev"] = l.stddev_ns();
  j["N"] = l.count();
  return j;
}

Json PercentilesJson(const FioLatency& l) {
  Json p = Json::object();
  for (double pct : kFioPercentiles) {
    char key[32];
    std::snprintf(key, sizeof key, "%f", pct);  // fio's keys: "99.900000"
    p[key] = l.Percentile(pct);
  }
  return p;
}

Json DirectionJson(const FioDirection& d, SimTime runtime_ns) {
  const SimTime runtime = d.total_ios > 0 ? runtime_ns : 0;
  const double bytes_per_sec = FioBytesPerSec(d, runtime);
  Json j;
  j["io_bytes"] = d.io_bytes;
  j["io_kbytes"] = d.io_bytes / 1024;
  j["bw_bytes"] = static_cast<int64_t>(std::llround(bytes_per_sec));
  j["bw"] = static_cast<int64_t>(std::llround(bytes_per_sec / 1024.0));  // KiB/s
  j["iops"] = FioIops(d, runtime);
  j["runtime"] = static_cast<int64_t>(std::llround(NsToMs(runtime)));
  j["total_ios"] = d.total_ios;
  j["short_ios"] = 0;
  j["drop_ios"] = 0;
  j["slat_ns"] = LatencyJson(FioLatency{});  // not simulated: N = 0
  Json clat = LatencyJson(d.clat);
  if (d.clat.count() > 0) clat["percentile"] = PercentilesJson(d.clat);
  j["clat_ns"] = clat;
  j["lat_ns"] = LatencyJson(d.clat);  // slat is 0, so lat = clat
  return j;
}

void Add(FioReport& r, const FioCloneResult& c) {
  r.runtime_ns = std::max(r.runtime_ns, c.runtime_ns);
  for (auto [to, from] : {std::pair{&r.read, &c.read}, std::pair{&r.write, &c.write}}) {
    to->io_bytes += from->io_bytes;
    to->total_ios += from->total_ios;
    to->clat.Merge(from->clat);
  }
}

std::string Us(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(ns) / 1e3);
  return buf;
}

// One direction of an entry of the report's jobs[], over the entry's runtime.
void PrintDirection(std::string* out, const char* name, const Json& j, SimTime runtime_ns) {
  const FioDirection d{.io_bytes = j["io_bytes"].get<int64_t>(), .total_ios = j["total_ios"].get<int64_t>()};
  if (d.total_ios == 0) return;
  const Json& clat = j["clat_ns"];
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "  %s: IOPS=%.1f, BW=%.2f MB/s (%.2f MiB/s), %lld ios in %.3f s\n"
                "    clat (usec): mean=%.1f, p50=%s, p99=%s, max=%s\n",
                name, FioIops(d, runtime_ns), FioBytesPerSec(d, runtime_ns) / 1e6,
                FioBytesPerSec(d, runtime_ns) / (1 << 20), static_cast<long long>(d.total_ios), NsToSec(runtime_ns),
                clat["mean"].get<double>() / 1e3, Us(clat["percentile"]["50.000000"].get<int64_t>()).c_str(),
                Us(clat["percentile"]["99.000000"].get<int64_t>()).c_str(), Us(clat["max"].get<int64_t>()).c_str());
  *out += buf;
}

}  // namespace

double FioBytesPerSec(const FioDirection& d, SimTime runtime_ns) {
  return runtime_ns > 0 ? static_cast<double>(d.io_bytes) / NsToSec(runtime_ns) : 0.0;
}

double FioIops(const FioDirection& d, SimTime runtime_ns) {
  return runtime_ns > 0 ? static_cast<double>(d.total_ios) / NsToSec(runtime_ns) : 0.0;
}

std::vector<FioReport> FioReports(const std::vector<FioJob>& jobs, const FioResult& result) {
  // A group is reported merged when any of its jobs asks for group_reporting.
  std::vector<bool> merged;
  for (const FioCloneResult& c : result.clones) {
    if (merged.size() <= static_cast<size_t>(c.groupid)) merged.resize(static_cast<size_t>(c.groupid) + 1, false);
    if (jobs[c.job].group_reporting) merged[static_cast<size_t>(c.groupid)] = true;
  }
  std::vector<FioReport> reports;
  std::vector<int> group_entry(merged.size(), -1);
  for (const FioCloneResult& c : result.clones) {
    const size_t g = static_cast<size_t>(c.groupid);
    if (merged[g] && group_entry[g] >= 0) {
      FioReport& r = reports[static_cast<size_t>(group_entry[g])];
      ++r.clones;
      Add(r, c);
      continue;
    }
    FioReport r;
    r.jobname = jobs[c.job].name;
    r.groupid = c.groupid;
    r.job = &jobs[c.job];
    r.effective_iodepth = c.effective_iodepth;
    Add(r, c);
    if (merged[g]) group_entry[g] = static_cast<int>(reports.size());
    reports.push_back(std::move(r));
  }
  return reports;
}

nlohmann::ordered_json FioJson(const FioJobFile& file, const FioResult& result) {
  Json doc;
  doc["fio version"] = kFioVersion;
  doc["timestamp"] = 0;  // a simulated run has no wall-clock time; fixed so output is reproducible
  doc["timestamp_ms"] = 0;
  doc["time"] = "Thu Jan  1 00:00:00 1970";
  if (!file.global_options.empty()) doc["global options"] = Options(file.global_options);
  Json jobs = Json::array();
  for (const FioReport& r : FioReports(file.jobs, result)) {
    Json j;
    j["jobname"] = r.jobname;
    j["groupid"] = r.groupid;
    j["error"] = 0;
    j["eta"] = 0;
    j["elapsed"] = static_cast<int64_t>(std::ceil(NsToSec(result.elapsed_ns)));
    j["job options"] = Options(r.job->options);
    j["read"] = DirectionJson(r.read, r.runtime_ns);
    j["write"] = DirectionJson(r.write, r.runtime_ns);
    j["trim"] = DirectionJson(FioDirection{}, 0);
    j["job_runtime"] = static_cast<int64_t>(std::llround(NsToMs(r.runtime_ns)));
    // The job as ziosim read it (fio's "job options" are the text), and the exact runtime.
    j["ziosim"] = {{"clones", r.clones},
                   {"effective_iodepth", r.effective_iodepth},
                   {"rw", std::string(FioRwName(r.job->rw))},
                   {"bs_bytes", r.job->bs_bytes},
                   {"ioengine", std::string(FioEngineName(r.job->ioengine))},
                   {"iodepth", r.job->iodepth},
                   {"runtime_ns", r.runtime_ns}};
    jobs.push_back(std::move(j));
  }
  doc["jobs"] = std::move(jobs);
  Json disks = Json::array();
  for (const FioDiskUtil& d : result.disks) {
    disks.push_back({{"name", d.name},
                     {"read_ios", d.read_ios},
                     {"write_ios", d.write_ios},
                     {"read_merges", 0},
                     {"write_merges", 0},
                     {"util", d.util_pct}});
  }
  doc["disk_util"] = std::move(disks);
  doc["ziosim"] = {{"notes", result.notes}};  // fio readers skip keys they do not know
  return doc;
}

std::string FioNormalText(const nlohmann::ordered_json& report) {
  std::string out;
  for (const Json& j : report["jobs"]) {
    const Json& z = j["ziosim"];
    char head[320];
    std::snprintf(head, sizeof head,
                  "%s: (groupid=%d, jobs=%d): rw=%s, bs=%lld, ioengine=%s, iodepth=%d (in flight: %d)\n",
                  j["jobname"].get<std::string>().c_str(), j["groupid"].get<int>(), z["clones"].get<int>(),
                  z["rw"].get<std::string>().c_str(), static_cast<long long>(z["bs_bytes"].get<int64_t>()),
                  z["ioengine"].get<std::string>().c_str(), z["iodepth"].get<int>(), z["effective_iodepth"].get<int>());
    out += head;
    const SimTime runtime_ns = z["runtime_ns"].get<SimTime>();
    PrintDirection(&out, "read", j["read"], runtime_ns);
    PrintDirection(&out, "write", j["write"], runtime_ns);
  }
  out += "\nDisk stats (simulated):\n";
  for (const Json& d : report["disk_util"]) {
    char line[200];
    std::snprintf(line, sizeof line, "  %s: ios=%llu/%llu, util=%.2f%%\n", d["name"].get<std::string>().c_str(),
                  static_cast<unsigned long long>(d["read_ios"].get<uint64_t>()),
                  static_cast<unsigned long long>(d["write_ios"].get<uint64_t>()), d["util"].get<double>());
    out += line;
  }
  return out;
}

std::string FioReportText(const nlohmann::ordered_json& report, const std::string& format) {
  return format == "json" ? report.dump(2) + "\n" : FioNormalText(report);
}

}  // namespace ziosim
