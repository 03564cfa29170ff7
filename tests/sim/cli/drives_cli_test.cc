// `ziosim drives` reports, for each catalog drive, how many of its figures its
// file sources and how many it estimates.
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/models/catalog/figure_provenance.h"
#include "tests/sim/cli/cli_runner.h"

namespace {

using ziosim::testing::CliRun;
using ziosim::testing::ReadTomlProvenance;
using ziosim::testing::RunCli;
using ziosim::testing::TomlProvenance;

nlohmann::json CatalogJson() {
  const CliRun run = RunCli("drives --json");
  EXPECT_EQ(run.status, 0) << run.err;
  return nlohmann::json::parse(run.out);
}

// The SOURCED column (the row's last word) of `name`'s row in the table.
std::string SourcedColumn(const std::string& table, const std::string& name) {
  std::istringstream in(table);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(name + " ", 0) == 0) return line.substr(line.find_last_of(' ') + 1);
  }
  return "(no row for " + name + ")";
}

TEST(DrivesCliTest, JsonCountsAreTheDriveFilesOwn) {
  SKIP_WITHOUT_CLI();
  const nlohmann::json drives = CatalogJson();
  ASSERT_FALSE(drives.empty());
  for (const nlohmann::json& d : drives) {
    const TomlProvenance file = ReadTomlProvenance(d["file"].get<std::string>());
    EXPECT_EQ(d["figures_sourced"].get<int>(), file.Sourced()) << d["name"];
    EXPECT_EQ(d["figures_estimated"].get<int>(), file.Estimated()) << d["name"];
    EXPECT_EQ(d["values"].size(), file.figures.size()) << d["name"];
  }
}

TEST(DrivesCliTest, TableShowsSourcedOfAllFigures) {
  SKIP_WITHOUT_CLI();
  const CliRun run = RunCli("drives");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("SOURCED"), std::string::npos) << run.out;
  for (const nlohmann::json& d : CatalogJson()) {
    const std::string name = d["name"].get<std::string>();
    const TomlProvenance file = ReadTomlProvenance(d["file"].get<std::string>());
    EXPECT_EQ(SourcedColumn(run.out, name),
              std::to_string(file.Sourced()) + "/" + std::to_string(file.figures.size()))
        << run.out;
  }
}

}  // namespace
