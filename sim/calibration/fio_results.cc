#include "sim/calibration/fio_results.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/core/status.h"
#include "sim/core/units.h"

namespace ziosim {
namespace {

using FioJson = nlohmann::json;

class FioJsonReader {
 public:
  explicit FioJsonReader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void Fail(const std::string& what) const { throw InputError(path_ + ": " + what); }

  FioJson Parse() const {
    std::ifstream in(path_);
    if (!in) Fail("cannot open");
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    // fio may print notes before the JSON when stderr shares the output.
    const size_t start = s.find('{');
    if (start == std::string::npos) Fail("not fio JSON output (no '{')");
    FioJson j = FioJson::parse(s.begin() + static_cast<std::ptrdiff_t>(start), s.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) Fail("not valid JSON");
    if (!j.contains("jobs") || !j["jobs"].is_array()) Fail("jobs: missing (not fio --output-format=json output?)");
    return j;
  }

  const FioJson& Field(const FioJson& parent, const std::string& key, const std::string& where) const {
    if (!parent.is_object() || !parent.contains(key)) Fail(where + "." + key + ": missing");
    return parent[key];
  }

  double Number(const FioJson& parent, const std::string& key, const std::string& where) const {
    const FioJson& v = Field(parent, key, where);
    if (!v.is_number()) Fail(where + "." + key + ": expected a number");
    return v.get<double>();
  }

  // A job option: the job's own, else the global one, else `fallback`.
  std::string Option(const FioJson& job, const FioJson& global, const std::string& key,
                     const std::string& fallback) const {
    for (const FioJson* options : {&job, &global}) {
      if (options->is_object() && options->contains(key) && (*options)[key].is_string()) {
        return (*options)[key].get<std::string>();
      }
    }
    return fallback;
  }

  int Count(const std::string& text, const std::string& where) const {
    try {
      size_t used = 0;
      const int n = std::stoi(text, &used);
      if (used == text.size() && n > 0) return n;
    } catch (const std::exception&) {
    }
    Fail(where + ": expected a positive integer, got \"" + text + "\"");
  }

 private:
  std::string path_;
};

}  // namespace

std::string FioRun::Label() const {
  std::ostringstream out;
  out << (random ? "randread " : "read ") << block_bytes / 1024 << "k " << ioengine << " qd" << iodepth << " nj"
      << numjobs << " (" << std::filesystem::path(file).filename().string() << ")";
  return out.str();
}

std::vector<FioRun> ReadFioJson(const std::string& path) {
  const FioJsonReader r(path);
  const FioJson root = r.Parse();
  const FioJson global = root.contains("global options") ? root["global options"] : FioJson::object();
  std::map<int64_t, FioRun> groups;
  std::map<int64_t, double> group_ios;
  const FioJson& jobs = root["jobs"];
  for (size_t i = 0; i < jobs.size(); ++i) {
    const std::string where = "jobs[" + std::to_string(i) + "]";
    const FioJson& job = jobs[i];
    const FioJson& options = r.Field(job, "job options", where);
    const std::string rw = r.Option(options, global, "rw", "read");
    if (rw != "read" && rw != "randread") continue;  // writes and mixes are not fitted
    const std::string opt_where = where + ".job options";
    const FioJson& read = r.Field(job, "read", where);
    const FioJson& clat = r.Field(read, "clat_ns", where + ".read");
    const double ios = r.Number(read, "total_ios", where + ".read");
    const auto group = static_cast<int64_t>(r.Number(job, "groupid", where));
    auto [it, fresh] = groups.try_emplace(group);
    FioRun& run = it->second;
    if (fresh) {
      run.file = path;
      run.job = job.contains("jobname") && job["jobname"].is_string() ? job["jobname"].get<std::string>() : where;
      run.random = rw == "randread";
      run.block_bytes = ParsePositiveSize(r.Option(options, global, "bs", "4k"), path + ": " + opt_where + ".bs");
      run.iodepth = r.Count(r.Option(options, global, "iodepth", "1"), opt_where + ".iodepth");
      run.numjobs = r.Count(r.Option(options, global, "numjobs", "1"), opt_where + ".numjobs");
      run.ioengine = r.Option(options, global, "ioengine", "psync");
    } else {
      run.numjobs += 1;  // one more job of the group reported on its own
    }
    run.mb_s += r.Number(read, "bw_bytes", where + ".read") / 1e6;
    run.iops += r.Number(read, "iops", where + ".read");
    // Weighted by I/O count, so the group's mean is over all its I/Os.
    const double total = group_ios[group] + ios;
    const double mean_us = r.Number(clat, "mean", where + ".read.clat_ns") / 1e3;
    run.clat_mean_us = total > 0 ? (run.clat_mean_us * group_ios[group] + mean_us * ios) / total : 0.0;
    group_ios[group] = total;
  }
  if (groups.empty()) r.Fail("no read job (rw = read or randread) to fit");
  std::vector<FioRun> runs;
  for (auto& [group, run] : groups) {
    if (run.iops <= 0) r.Fail("job " + run.job + ": no reads completed (iops 0)");
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace ziosim
