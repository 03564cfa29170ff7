// `--plot FILE.png` for the CLI: the JSON result goes to the Python package's
// ziosim.plot_cli, which draws it with matplotlib. The interpreter is
// $ZIOSIM_PYTHON, else the python3 beside the ziosim binary (a pip install into
// a virtual environment puts both in its bin/), else python3 on the PATH; the
// build tree's copy of the package (build/python) is found too.
#ifndef ZIOSIM_SIM_CLI_PLOT_FILE_H_
#define ZIOSIM_SIM_CLI_PLOT_FILE_H_

#include <string>

#include <nlohmann/json.hpp>

namespace ziosim::cli {

// Throws InputError if no Python with the ziosim package could draw it.
void PlotResult(const std::string& kind, const nlohmann::json& result, const std::string& png_path);

}  // namespace ziosim::cli

#endif  // ZIOSIM_SIM_CLI_PLOT_FILE_H_
