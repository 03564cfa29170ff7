#include "sim/cli/front_command.h"

#include <cstdio>
#include <memory>
#include <vector>

#include "sim/calibration/calibrate_front.h"
#include "sim/cli/plot_file.h"
#include "sim/core/status.h"
#include "sim/core/text.h"

namespace ziosim::cli {
namespace {

std::string FlagNames(const OptionInfo& info) {
  if (info.flags.empty()) return OptionInfo{.name = info.name}.Label(OptionFront::kCli);
  return Join(info.flags, ",");
}

// The default as --help shows it.
std::string DefaultText(const Json& fallback) {
  if (fallback.is_string()) return fallback.get<std::string>();
  if (fallback.is_array() && !fallback.empty() && fallback.front().is_number()) {
    std::vector<std::string> items;
    for (const Json& v : fallback) items.push_back(v.dump());
    return Join(items, ",");
  }
  if (fallback.is_number()) return fallback.dump();
  return "";
}

// What the command line gave, one slot per option of the table.
struct Given {
  std::vector<std::string> text;
  std::vector<std::vector<std::string>> lists;
  std::vector<char> flags;
  std::vector<CLI::Option*> handles;
  std::vector<std::string> properties;  // -o NAME=VALUE
  bool json = false;
  std::string plot;
};

// The value's form in --help.
std::string TypeName(OptionKind k) {
  switch (k) {
    case OptionKind::kInt: return "INT";
    case OptionKind::kReal: return "NUMBER";
    case OptionKind::kSize: return "SIZE";
    case OptionKind::kIntList: return "N,N,...";
    case OptionKind::kTunables: return "NAME=VALUE";
    case OptionKind::kDuration: return "TIME";
    default: return "TEXT";
  }
}

bool IsList(OptionKind k) { return k == OptionKind::kTextList || k == OptionKind::kTunables || k == OptionKind::kIntList; }

// -o NAME=VALUE as the (name, value) of a dataset-property option.
std::pair<std::string, Json> PropertyArg(const std::vector<OptionInfo>& options, const std::string& item,
                                         const std::string& workload) {
  const size_t eq = item.find('=');
  if (eq == std::string::npos) throw InputError("-o: \"" + Printable(item) + "\" is not PROPERTY=VALUE");
  const std::string name = item.substr(0, eq);
  std::vector<std::string> known;
  for (const OptionInfo& o : options) {
    if (!o.dataset_property) continue;
    if (o.name == name) return {name, Json(item.substr(eq + 1))};
    known.push_back(o.name);
  }
  throw InputError("-o: " + Printable(name) + " is not a dataset property " + workload + " takes (" + Join(known) +
                   ")");
}

OptionArgs Args(const std::vector<OptionInfo>& options, const Given& g, const std::string& workload) {
  OptionArgs args;
  for (size_t i = 0; i < options.size(); ++i) {
    if (g.handles[i]->count() == 0) continue;
    const OptionInfo& o = options[i];
    if (o.kind == OptionKind::kFlag) {
      args.emplace_back(o.name, Json(g.flags[i] != 0));
    } else if (o.kind == OptionKind::kIntList) {
      args.emplace_back(o.name, Json(Join(g.lists[i], ",")));
    } else if (IsList(o.kind)) {
      args.emplace_back(o.name, Json(g.lists[i]));
    } else {
      args.emplace_back(o.name, Json(g.text[i]));
    }
  }
  for (const std::string& item : g.properties) args.push_back(PropertyArg(options, item, workload));
  return args;
}

}  // namespace

const std::vector<FrontCommand>& FrontCommands() {
  static const std::vector<FrontCommand> commands = {
      {&DiskBenchFront(), PrintDiskBenchText, false},
      {&BlockReadFront(), PrintBlockReadText, true},
      {&ReadersFront(), PrintReadersText, true},
      {&WritersFront(), PrintWritersText, true},
      {&ReplayFront(), PrintReplayText, true},
      {&FioFront(), PrintFioText, false},
      {&PersonalityFront(), PrintPersonalityText, false},
      {&DemoFront(), PrintDemoText, false},
      {&CalibrateFront(), PrintCalibrateText, false},
      {&ScrubFront(), PrintScrubText, false},
      {&ResilverFront(), PrintScrubText, false},
  };
  return commands;
}

const FrontCommand& FindFrontCommand(const std::string& workload) {
  const WorkloadFront& front = FindWorkloadFront(workload);
  for (const FrontCommand& c : FrontCommands()) {
    if (c.front == &front) return c;
  }
  throw InternalError("workload " + workload + " has no command");
}

void PrintResult(const FrontCommand& command, const Json& result, bool json) {
  if (!json) {
    command.print(result);
    return;
  }
  if (result.contains("notes")) {
    for (const Json& note : result["notes"]) std::fprintf(stderr, "ziosim: note: %s\n", note.get<std::string>().c_str());
  }
  std::printf("%s\n", result.dump(2).c_str());
}

void AddFrontCommand(CLI::App& app, const FrontCommand& command) {
  const WorkloadFront& front = *command.front;
  const std::vector<OptionInfo> options = front.options();
  auto g = std::make_shared<Given>();
  g->text.resize(options.size());
  g->lists.resize(options.size());
  g->flags.resize(options.size());
  CLI::App* cmd = app.add_subcommand(front.name(), front.summary());
  for (size_t i = 0; i < options.size(); ++i) {
    const OptionInfo& o = options[i];
    CLI::Option* handle = nullptr;
    if (o.kind == OptionKind::kFlag) {
      handle = cmd->add_flag_callback(FlagNames(o), [g, i] { g->flags[i] = 1; }, o.doc);
    } else if (IsList(o.kind)) {
      handle = cmd->add_option(FlagNames(o), g->lists[i], o.doc);
      if (o.kind == OptionKind::kIntList) handle->delimiter(',');
    } else {
      handle = cmd->add_option(FlagNames(o), g->text[i], o.doc);
    }
    if (o.kind != OptionKind::kFlag) {
      handle->type_name(TypeName(o.kind));
      if (const std::string d = DefaultText(o.fallback); !d.empty()) handle->default_str(d);
    }
    if (o.required) handle->required();
    g->handles.push_back(handle);
  }
  std::vector<std::string> properties;
  for (const OptionInfo& o : options) {
    if (o.dataset_property) properties.push_back(o.name);
  }
  if (!properties.empty()) {
    cmd->add_option("-o", g->properties, "Dataset property NAME=VALUE, as `zfs create -o` takes it (" +
                                             Join(properties) + "); repeatable");
  }
  cmd->add_flag("--json", g->json, "Print one JSON object");
  if (command.plot) cmd->add_option("--plot", g->plot, "Also draw the result into this PNG");
  cmd->callback([g, options, command] {
    const Json result = command.front->Run(Args(options, *g, command.front->name()), OptionFront::kCli);
    PrintResult(command, result, g->json);
    if (!g->plot.empty()) PlotResult(command.front->name(), result, g->plot);
  });
}

}  // namespace ziosim::cli
