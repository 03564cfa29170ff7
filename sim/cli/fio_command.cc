// `ziosim fio JOBFILE --target DRIVE|POOL`'s report, printed from the fio
// result (sim/workload/fio_front.cc) as fio would print it: `--output-format
// json` is fio 3.x's JSON, `normal` a short summary; with --output the run
// wrote it to that file. The command is generated from the workload's option
// table (front_command.h).
#include <cstdio>
#include <iostream>
#include <string>

#include "sim/cli/front_command.h"
#include "sim/workload/fio_json.h"

namespace ziosim::cli {

void PrintFioText(const Json& result) {
  // fio's report has no place for them.
  for (const Json& note : result["notes"]) std::cerr << "ziosim: note: " << note.get<std::string>() << "\n";
  if (!result["output"].is_null()) return;
  std::cout << FioReportText(result["fio"], result["output_format"].get<std::string>());
}

}  // namespace ziosim::cli
