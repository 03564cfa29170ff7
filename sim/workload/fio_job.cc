#include "sim/workload/fio_job.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include "sim/core/status.h"
#include "sim/core/text.h"
#include "sim/core/units.h"

namespace ziosim {
namespace {

// The option being read: where it is, its name and its text.
struct Value {
  const std::string& file;
  int line;
  std::string_view key;
  std::string text;
  bool bare;  // written as a flag, without '='

  [[noreturn]] void Fail(const std::string& what) const {
    throw InputError(file, line, "field " + std::string(key) + ": " + what);
  }
  std::string Quoted() const { return "\"" + text + "\""; }
  void RequireText() const {
    if (bare || text.empty()) Fail("needs a value");
  }
};

int64_t SizeOf(const Value& v) {
  v.RequireText();
  try {
    return ParseSize(v.text, "field " + std::string(v.key), SizeGrammar::kFio);
  } catch (const InputError& e) {
    throw InputError(v.file, v.line, e.what());
  }
}

int64_t IntOf(const Value& v, int64_t lo, int64_t hi) {
  v.RequireText();
  errno = 0;
  char* end = nullptr;
  const long long n = std::strtoll(v.text.c_str(), &end, 10);
  if (errno != 0 || end == v.text.c_str() || *end != '\0' || n < lo || n > hi) {
    v.Fail(v.Quoted() + " is not an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
  }
  return n;
}

// fio's boolean options: a bare flag is 1.
bool BoolOf(const Value& v) {
  if (v.bare) return true;
  if (v.text == "1") return true;
  if (v.text == "0") return false;
  v.Fail(v.Quoted() + " is not 0 or 1");
}

SimTime TimeOf(const Value& v) {
  v.RequireText();
  try {
    return ParseDuration(v.text, "field " + std::string(v.key));
  } catch (const InputError& e) {
    throw InputError(v.file, v.line, e.what());
  }
}

FioRw RwOf(const Value& v) {
  v.RequireText();
  static constexpr std::pair<std::string_view, FioRw> kNames[] = {
      {"read", FioRw::kRead},         {"write", FioRw::kWrite},         {"randread", FioRw::kRandRead},
      {"randwrite", FioRw::kRandWrite}, {"rw", FioRw::kReadWrite},     {"readwrite", FioRw::kReadWrite},
      {"randrw", FioRw::kRandReadWrite}};
  for (const auto& [name, rw] : kNames) {
    if (v.text == name) return rw;
  }
  v.Fail(v.Quoted() + " is not read, write, randread, randwrite, rw, readwrite or randrw");
}

FioEngine EngineOf(const Value& v) {
  v.RequireText();
  static constexpr std::pair<std::string_view, FioEngine> kNames[] = {{"psync", FioEngine::kPsync},
                                                                      {"sync", FioEngine::kSync},
                                                                      {"libaio", FioEngine::kLibaio},
                                                                      {"io_uring", FioEngine::kIoUring},
                                                                      {"posixaio", FioEngine::kPosixaio}};
  for (const auto& [name, engine] : kNames) {
    if (v.text == name) return engine;
  }
  v.Fail(v.Quoted() + " is not simulated (psync, sync, libaio, io_uring or posixaio)");
}

// size=N% (of the device or file) or a size in bytes.
void SetSize(FioJob& j, const Value& v) {
  v.RequireText();
  if (v.text.back() == '%') {
    const std::string number = v.text.substr(0, v.text.size() - 1);
    char* end = nullptr;
    const double pct = std::strtod(number.c_str(), &end);
    if (number.empty() || *end != '\0' || !(pct > 0 && pct <= 100)) {
      v.Fail(v.Quoted() + " is not a percentage in (0, 100]");
    }
    j.size_pct = pct;
    j.size_bytes = 0;
    return;
  }
  j.size_bytes = SizeOf(v);
  j.size_pct = 0;
  if (j.size_bytes == 0) v.Fail("must be positive");
}

void SetBs(FioJob& j, const Value& v) {
  if (v.text.find(',') != std::string::npos) v.Fail("separate read,write block sizes are not supported: give one size");
  j.bs_bytes = SizeOf(v);
  if (j.bs_bytes == 0) v.Fail("must be positive");
}

void SetFilename(FioJob& j, const Value& v) {
  v.RequireText();
  if (v.text.find(':') != std::string::npos) v.Fail("several files (a:b) are not supported: use nrfiles");
  j.filename = v.text;
}

void SetRandseed(FioJob& j, const Value& v) {
  j.randseed = static_cast<uint64_t>(IntOf(v, 0, std::numeric_limits<int64_t>::max()));
  j.randseed_given = true;
}

void Ignore(FioJob&, const Value&) {}

using Setter = void (*)(FioJob&, const Value&);
struct FioOption {
  std::string_view name;
  Setter set;
};

// The single list of what a job file may say (see docs/fio-jobs.md).
constexpr FioOption kOptions[] = {
    {"name", [](FioJob& j, const Value& v) { v.RequireText(); j.name = v.text; }},
    {"rw", [](FioJob& j, const Value& v) { j.rw = RwOf(v); }},
    {"readwrite", [](FioJob& j, const Value& v) { j.rw = RwOf(v); }},
    {"rwmixread", [](FioJob& j, const Value& v) { j.rwmixread = static_cast<int>(IntOf(v, 0, 100)); }},
    {"rwmixwrite", [](FioJob& j, const Value& v) { j.rwmixread = 100 - static_cast<int>(IntOf(v, 0, 100)); }},
    {"bs", SetBs},
    {"blocksize", SetBs},
    {"size", SetSize},
    {"numjobs", [](FioJob& j, const Value& v) { j.numjobs = static_cast<int>(IntOf(v, 1, 1024)); }},
    {"iodepth", [](FioJob& j, const Value& v) { j.iodepth = static_cast<int>(IntOf(v, 1, 4096)); }},
    {"ioengine", [](FioJob& j, const Value& v) { j.ioengine = EngineOf(v); }},
    {"direct", [](FioJob& j, const Value& v) { j.direct = BoolOf(v); }},
    {"buffered", [](FioJob& j, const Value& v) { j.direct = !BoolOf(v); }},
    {"runtime", [](FioJob& j, const Value& v) { j.runtime_ns = TimeOf(v); }},
    {"timeout", [](FioJob& j, const Value& v) { j.runtime_ns = TimeOf(v); }},
    {"time_based", [](FioJob& j, const Value& v) { j.time_based = BoolOf(v); }},
    {"ramp_time", [](FioJob& j, const Value& v) { j.ramp_time_ns = TimeOf(v); }},
    {"offset", [](FioJob& j, const Value& v) { j.offset_bytes = SizeOf(v); }},
    {"offset_increment", [](FioJob& j, const Value& v) { j.offset_increment_bytes = SizeOf(v); }},
    {"filename", SetFilename},
    {"nrfiles", [](FioJob& j, const Value& v) { j.nrfiles = static_cast<int>(IntOf(v, 1, 4096)); }},
    {"filesize", [](FioJob& j, const Value& v) { j.filesize_bytes = SizeOf(v); }},
    {"randrepeat", [](FioJob&, const Value& v) { BoolOf(v); }},  // runs are always repeatable per --seed
    {"randseed", SetRandseed},
    {"group_reporting", [](FioJob& j, const Value& v) { j.group_reporting = BoolOf(v); }},
    {"stonewall", [](FioJob& j, const Value& v) { j.stonewall = BoolOf(v); }},
    {"wait_for_previous", [](FioJob& j, const Value& v) { j.stonewall = BoolOf(v); }},
    {"new_group", [](FioJob& j, const Value& v) { j.new_group = BoolOf(v); }},
    // Accepted and ignored: they shape fio's logs and process model, not the I/O it issues.
    {"description", Ignore},
    {"invalidate", Ignore},
    {"thread", Ignore},
    {"write_iolog", Ignore},
    {"write_lat_log", Ignore},
    {"write_bw_log", Ignore},
    {"write_iops_log", Ignore},
    {"write_hist_log", Ignore},
    {"log_avg_msec", Ignore},
    {"per_job_logs", Ignore},
    {"norandommap", Ignore},  // offsets are drawn uniformly anyway (docs/fio-jobs.md)
};

const FioOption* FindFioOption(std::string_view key) {
  for (const FioOption& o : kOptions) {
    if (o.name == key) return &o;
  }
  return nullptr;
}

std::string UnknownOption(std::string_view key) {
  std::string message = "unknown fio option '" + std::string(key) + "'";
  for (const FioOption& o : kOptions) {
    if (EditDistance(key, o.name) <= 2) return message + " (did you mean '" + std::string(o.name) + "'?)";
  }
  return message;
}

// The line without its comment: ';' or '#' at the start or after a blank.
std::string_view StripComment(std::string_view line) {
  for (size_t i = 0; i < line.size(); ++i) {
    if ((line[i] == ';' || line[i] == '#') && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
      return line.substr(0, i);
    }
  }
  return line;
}

void CheckJob(const FioJob& j) {
  const auto fail = [&j](const std::string& what) {
    throw InputError(j.file, j.line, "job '" + j.name + "': " + what);
  };
  if (j.time_based && j.runtime_ns == 0) fail("time_based needs a runtime");
  if (!j.filename.empty() && j.nrfiles > 1) fail("filename and nrfiles > 1 together are not supported");
}

}  // namespace

std::string_view FioRwName(FioRw rw) {
  switch (rw) {
    case FioRw::kRead: return "read";
    case FioRw::kWrite: return "write";
    case FioRw::kRandRead: return "randread";
    case FioRw::kRandWrite: return "randwrite";
    case FioRw::kReadWrite: return "rw";
    case FioRw::kRandReadWrite: return "randrw";
  }
  return "?";
}

std::string_view FioEngineName(FioEngine engine) {
  switch (engine) {
    case FioEngine::kPsync: return "psync";
    case FioEngine::kSync: return "sync";
    case FioEngine::kLibaio: return "libaio";
    case FioEngine::kIoUring: return "io_uring";
    case FioEngine::kPosixaio: return "posixaio";
  }
  return "?";
}

FioJobFile ParseFioJobs(std::string_view text, const std::string& file_name) {
  FioJobFile out;
  FioJob global;         // defaults for the jobs that follow
  FioJob* section = nullptr;
  bool in_global = false;
  int line_no = 0;
  std::istringstream in{std::string(text)};
  std::string raw;
  while (std::getline(in, raw)) {
    ++line_no;
    const std::string_view line = Trim(StripComment(raw));
    if (line.empty()) continue;
    if (line.front() == '[') {
      if (line.back() != ']') throw InputError(file_name, line_no, "section header without ']'");
      const std::string name(Trim(line.substr(1, line.size() - 2)));
      if (name.empty()) throw InputError(file_name, line_no, "empty section name");
      in_global = name == "global";
      if (in_global) {
        section = &global;
      } else {
        FioJob job = global;
        job.name = name;
        job.file = file_name;
        job.line = line_no;
        job.options.clear();
        out.jobs.push_back(std::move(job));
        section = &out.jobs.back();
      }
      continue;
    }
    if (section == nullptr) throw InputError(file_name, line_no, "option before the first [section]");
    const size_t eq = line.find('=');
    const std::string key = Lower(Trim(line.substr(0, eq)));
    const FioOption* option = FindFioOption(key);
    if (option == nullptr) throw InputError(file_name, line_no, UnknownOption(key));
    const bool bare = eq == std::string_view::npos;
    const Value value{file_name, line_no, key, bare ? std::string() : std::string(Trim(line.substr(eq + 1))), bare};
    option->set(*section, value);
    (in_global ? out.global_options : section->options).emplace_back(key, value.text);
  }
  if (out.jobs.empty()) throw InputError(file_name + ": no job section (only [global] or nothing)");
  for (const FioJob& j : out.jobs) CheckJob(j);
  return out;
}

FioJobFile LoadFioJobFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read the job file");
  std::stringstream text;
  text << in.rdbuf();
  return ParseFioJobs(text.str(), path);
}

}  // namespace ziosim
