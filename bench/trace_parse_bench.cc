// Trace parsing alone (issue 15 part 5: parsing must not dominate a replay;
// goal >= 5 M lines/s on one core): a trace of each text format, written to a
// temporary file once and then streamed through OpenTrace + Next as `ziosim
// replay` reads it. items_per_second = lines (MSR and strace: a request a
// line; blkparse: a D and a C line a request); the records counter says how
// many requests came out. The lines are made here, shaped as the formats'
// fixtures (traces/formats/), with offsets and times that move.
// ZIOSIM_PARSE_BENCH_REQUESTS sets the requests a trace holds (default 1 M;
// 10000000 for the 10 M-line trace: memory stays flat, as the
// readers stream).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "sim/trace/trace_reader.h"

namespace ziosim {
namespace {

int Requests() {
  static const int requests = [] {
    const char* env = std::getenv("ZIOSIM_PARSE_BENCH_REQUESTS");
    return env != nullptr && std::atoi(env) > 0 ? std::atoi(env) : 1'000'000;
  }();
  return requests;
}

class GeneratedTrace {
 public:
  GeneratedTrace(const std::string& name, const std::string& header,
                 const std::function<void(std::ofstream&, int)>& line)
      : path_((std::filesystem::temp_directory_path() / ("ziosim-parse-" + std::to_string(::getpid()) + "-" + name))
                  .string()) {
    std::ofstream out(path_, std::ios::binary);
    out << header;
    for (int i = 0; i < Requests(); ++i) line(out, i);
  }
  ~GeneratedTrace() { std::filesystem::remove(path_); }
  GeneratedTrace(const GeneratedTrace&) = delete;
  GeneratedTrace& operator=(const GeneratedTrace&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void Parse(benchmark::State& state, const GeneratedTrace& trace, TraceFormat format, int lines_per_request = 1) {
  int64_t records = 0;
  for (auto _ : state) {
    auto reader = OpenTrace(trace.path(), format);
    TraceRecord r;
    records = 0;
    while (reader->Next(r)) ++records;
    benchmark::DoNotOptimize(records);
  }
  state.SetItemsProcessed(state.iterations() * int64_t{Requests()} * lines_per_request);
  state.counters["records"] = static_cast<double>(records);
}

void BM_ParseMsr(benchmark::State& state) {
  static const GeneratedTrace trace("msr.csv", "", [](std::ofstream& out, int i) {
    out << 128166372000000000LL + int64_t{i} * 1000 << ",hm,0," << (i % 3 == 0 ? "Write" : "Read") << ','
        << (int64_t{i} * 7919 % 100000) * 4096 << ",4096," << 1000 + i % 500 << '\n';
  });
  Parse(state, trace, TraceFormat::kMsr);
}
BENCHMARK(BM_ParseMsr)->Unit(benchmark::kMillisecond);

void BM_ParseBlkparse(benchmark::State& state) {
  static const GeneratedTrace trace("blkparse.txt", "", [](std::ofstream& out, int i) {
    char buf[160];
    const double t = i * 1e-4;
    const int64_t sector = int64_t{i} * 8 % 100000000;
    std::snprintf(buf, sizeof buf, "  8,16   1 %8d %14.9f  4711  D   R %lld + 8 [fio]\n  8,16   1 %8d %14.9f     0  C   R %lld + 8 [0]\n",
                  2 * i + 1, t, static_cast<long long>(sector), 2 * i + 2, t + 5e-5, static_cast<long long>(sector));
    out << buf;
  });
  Parse(state, trace, TraceFormat::kBlkparse, 2);
}
BENCHMARK(BM_ParseBlkparse)->Unit(benchmark::kMillisecond);

void BM_ParseStrace(benchmark::State& state) {
  static const GeneratedTrace trace(
      "app.strace", "4711 00:00:00.000000 openat(AT_FDCWD</d>, \"f\", O_RDONLY) = 3</d/f> <0.000010>\n",
      [](std::ofstream& out, int i) {
        char buf[160];
        const int64_t us = 10 + int64_t{i} * 20;
        std::snprintf(buf, sizeof buf, "4711 %02lld:%02lld:%02lld.%06lld read(3</d/f>, \"\"..., 131072) = 131072 <0.000%03d>\n",
                      static_cast<long long>(us / 3600000000 % 24), static_cast<long long>(us / 60000000 % 60),
                      static_cast<long long>(us / 1000000 % 60), static_cast<long long>(us % 1000000), 100 + i % 800);
        out << buf;
      });
  Parse(state, trace, TraceFormat::kStrace);
}
BENCHMARK(BM_ParseStrace)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ziosim
