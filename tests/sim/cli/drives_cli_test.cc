// `ziosim drives` reports, for each catalog drive, how many of its figures its
// file sources and how many it estimates.
#include <fstream>
#include <iterator>
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

// `ziosim drives disksim:FILE.parv` lists a spec's disks: here the importer's one-file
// g4 seed with a second disk of another kind (a copy of its disk block, renamed).
TEST(DrivesCliTest, ListsTheDisksOfADisksimSpec) {
  SKIP_WITHOUT_CLI();
  std::ifstream in(std::string(ZIOSIM_CATALOG_DIR) + "/../../fuzz/corpus/disksim_import/one_file_g4.disksim");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t from = text.find("disksim_disk D {"), to = text.find("instantiate [ bus0 ]");
  ASSERT_NE(to, std::string::npos);
  std::string e = text.substr(from, to - from);
  e.replace(0, 16, "disksim_disk E {");
  e.replace(e.find("dm_disk M {"), 11, "dm_disk N {");
  text.insert(to, e);
  text.replace(text.find("instantiate [ disk0 ] as D"), 26, "instantiate [ disk0 ] as D\ninstantiate [ disk1 ] as E");
  text.replace(text.find("disksim_disk disk0 []"), 21, "disksim_disk disk0 [], disksim_disk disk1 []");
  const ziosim::testing::TempPath spec("two_kinds.parv", text);
  const CliRun json = RunCli("drives --json disksim:" + spec.str());
  ASSERT_EQ(json.status, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["read"], "disk0");
  ASSERT_EQ(j["disks"].size(), 2u);
  EXPECT_EQ(j["disks"][1]["name"], "disk1");
  EXPECT_EQ(j["disks"][1]["block"], "E");
  const CliRun second = RunCli("drives disksim:" + spec.str() + "#disk1");
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(second.out, spec.str() + ": disks disk0 (D), disk1 (E)\ndisksim:" + spec.str() +
                            "#disk1 reads disk1 (DiskSim's device 0 unless #NAME names another)\n");
  EXPECT_EQ(RunCli("drives wd-re4-1tb").status, 2);
}

}  // namespace
