// A workload as its fronts see it: the command line (sim/cli), scenario files
// (`ziosim run`), Python (bindings/) and the docs all work from this one
// interface, so each option and each result is declared once, in the
// workload's own *_front.cc: its option table (option.h) and its result, one
// JSON value (the CLI prints it with --json, draws it with --plot, and Python
// turns it into DataFrames; docs/results.md).
#ifndef ZIOSIM_SIM_WORKLOAD_WORKLOAD_FRONT_H_
#define ZIOSIM_SIM_WORKLOAD_WORKLOAD_FRONT_H_

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/option.h"
#include "sim/core/status.h"

namespace ziosim {

class WorkloadFront {
 public:
  virtual ~WorkloadFront() = default;
  virtual const std::string& name() const = 0;     // "readers": the subcommand, the Python function
  virtual const std::string& summary() const = 0;  // one line, for --help
  virtual std::vector<OptionInfo> options() const = 0;
  // Parses `args` (as `front` gives them) and runs the workload. Throws
  // InputError for bad input, naming the option in the caller's language; the
  // result's "notes" (what the reader should know of the run) name them so too.
  virtual Json Run(const OptionArgs& args, OptionFront front) const = 0;
  // Everything Run checks, without simulating.
  virtual void Check(const OptionArgs& args, OptionFront front) const = 0;
};

// A WorkloadFront made of an option table and two functions of the parsed
// options: one that runs and returns the result, one that only checks.
template <typename O>
class TableWorkload final : public WorkloadFront {
 public:
  TableWorkload(std::string summary, OptionTable<O> table, std::function<Json(const O&)> run,
                std::function<void(const O&)> check)
      : summary_(std::move(summary)), table_(std::move(table)), run_(std::move(run)), check_(std::move(check)) {}

  const std::string& name() const override { return table_.workload(); }
  const std::string& summary() const override { return summary_; }
  std::vector<OptionInfo> options() const override { return table_.infos(); }
  Json Run(const OptionArgs& args, OptionFront front) const override {
    return Respelt(front, [&] {
      Json result = run_(ApplyOptions(table_, args, front));
      if (result.contains("notes")) {
        for (Json& note : result["notes"]) note = RespellOptionError(table_.infos(), note.get<std::string>(), front);
      }
      return result;
    });
  }
  void Check(const OptionArgs& args, OptionFront front) const override {
    Respelt(front, [&] {
      check_(ApplyOptions(table_, args, front));
      return Json();
    });
  }

 private:
  // The simulator's checks name options by their command-line flags: other fronts get their own spelling.
  Json Respelt(OptionFront front, const std::function<Json()>& body) const {
    try {
      return body();
    } catch (const InputTypeError& e) {
      throw InputTypeError(RespellOptionError(table_.infos(), e.what(), front));
    } catch (const InputError& e) {
      throw InputError(RespellOptionError(table_.infos(), e.what(), front));
    }
  }

  std::string summary_;
  OptionTable<O> table_;
  std::function<Json(const O&)> run_;
  std::function<void(const O&)> check_;
};

// This layer's fronts, one per file (*_front.cc); sim/front/fronts.h lists
// them with the layers' above.
const WorkloadFront& BlockReadFront();
const WorkloadFront& ScrubFront();
const WorkloadFront& ResilverFront();
const WorkloadFront& DiskBenchFront();
const WorkloadFront& FioFront();
const WorkloadFront& ReadersFront();
const WorkloadFront& ReplayFront();
const WorkloadFront& WritersFront();
const WorkloadFront& PersonalityFront();  // `workload`
const WorkloadFront& DemoFront();

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_WORKLOAD_FRONT_H_
