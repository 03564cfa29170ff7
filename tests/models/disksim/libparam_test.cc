#include "models/disksim/libparam.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "sim/core/status.h"

namespace ziosim::libparam {
namespace {

// The message of the InputError that parsing `text` throws, or "no error".
std::string ErrorOf(std::string_view text, const std::string& file_name = "t.parv") {
  try {
    ParseText(text, file_name);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// A folder of its own under the system temp folder, removed afterwards.
class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("ziosim_libparam_" + std::to_string(std::random_device{}()) + "_" + std::to_string(counter_++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string Write(const std::string& name, std::string_view text) const {
    const std::filesystem::path file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

constexpr std::string_view kDisk = R"(# A drive.
disksim_disk D1 {
   Rotation speed (in rpms) = 10033,     # keys are free text
   Timeout time/weight = 6,
   Read hit over. after read = 0.381000,
   Bulk sector transfer time = -1.5e-3,
   Scheduler = disksim_ioqueue {
      Scheduling policy = 1
   },
   Zones = [
      dm_layout_g1_zone { First cylinder number = 0, slips = [ 1, 0x10, -3 ], defects = [] },
      dm_layout_g1_zone { First cylinder number = 616 }
   ],
   Full seek curve = d1_curve.seek,
   Seek type = extracted
}
)";

TEST(LibparamTest, ParsesBlocksKeysNumbersAndWords) {
  const ParamFile file = ParseText(kDisk, "d.diskspecs");
  ASSERT_EQ(file.blocks.size(), 1u);
  const Block& disk = file.blocks[0];
  EXPECT_EQ(disk.type, "disksim_disk");
  EXPECT_EQ(disk.name, "D1");
  EXPECT_EQ(disk.where.file, "d.diskspecs");
  EXPECT_EQ(disk.where.line, 2);
  ASSERT_EQ(disk.params.size(), 8u);

  const Param* rpm = disk.Find("Rotation speed (in rpms)");
  ASSERT_NE(rpm, nullptr);
  EXPECT_EQ(rpm->where.line, 3);
  EXPECT_EQ(rpm->value.kind, Value::Kind::kNumber);
  EXPECT_TRUE(rpm->value.is_integer);
  EXPECT_EQ(rpm->value.integer, 10033);
  ASSERT_NE(disk.Find("Timeout time/weight"), nullptr);
  EXPECT_DOUBLE_EQ(disk.Find("Read hit over. after read")->value.number, 0.381);
  EXPECT_FALSE(disk.Find("Read hit over. after read")->value.is_integer);
  EXPECT_DOUBLE_EQ(disk.Find("Bulk sector transfer time")->value.number, -1.5e-3);

  const Value& curve = disk.Find("Full seek curve")->value;
  EXPECT_EQ(curve.kind, Value::Kind::kWord);
  EXPECT_EQ(curve.text, "d1_curve.seek");
  EXPECT_EQ(curve.where.line, 14);
  EXPECT_EQ(disk.Find("Seek type")->value.text, "extracted");
  EXPECT_EQ(disk.Find("Nope"), nullptr);
}

TEST(LibparamTest, ParsesNestedBlocksAndLists) {
  const ParamFile file = ParseText(kDisk, "d.diskspecs");
  const Block& disk = file.blocks[0];
  const Value& scheduler = disk.Find("Scheduler")->value;
  ASSERT_EQ(scheduler.kind, Value::Kind::kBlock);
  EXPECT_EQ(scheduler.block->type, "disksim_ioqueue");
  EXPECT_EQ(scheduler.block->name, "");
  EXPECT_EQ(scheduler.block->Find("Scheduling policy")->where.line, 8);

  const Value& zones = disk.Find("Zones")->value;
  ASSERT_EQ(zones.kind, Value::Kind::kList);
  ASSERT_EQ(zones.items.size(), 2u);
  const Block& zone0 = *zones.items[0].block;
  EXPECT_EQ(zone0.type, "dm_layout_g1_zone");
  EXPECT_EQ(zone0.where.line, 11);
  const Value& slips = zone0.Find("slips")->value;
  ASSERT_EQ(slips.items.size(), 3u);
  EXPECT_EQ(slips.items[0].integer, 1);
  EXPECT_EQ(slips.items[1].integer, 16);
  EXPECT_EQ(slips.items[2].integer, -3);
  EXPECT_TRUE(zone0.Find("defects")->value.items.empty());
  EXPECT_EQ(zones.items[1].block->Find("First cylinder number")->value.integer, 616);
}

TEST(LibparamTest, ParsesInstantiateTopologyAndKeyLists) {
  const ParamFile file = ParseText(R"(
disksim_bus BUS1 { [ Read block transfer time, Write block transfer time ] = 0.17, }
instantiate [ bus0, bus1 ] as BUS1
topology disksim_iodriver driver0 [
   disksim_bus bus0 [
      disksim_disk disk0 [],
      disksim_disk disk1 []
   ]
]
)",
                                   "t.parv");
  ASSERT_EQ(file.blocks.size(), 1u);
  EXPECT_DOUBLE_EQ(file.blocks[0].Find("Read block transfer time")->value.number, 0.17);
  EXPECT_DOUBLE_EQ(file.blocks[0].Find("Write block transfer time")->value.number, 0.17);

  ASSERT_EQ(file.instantiations.size(), 1u);
  EXPECT_EQ(file.instantiations[0].instances, (std::vector<std::string>{"bus0", "bus1"}));
  EXPECT_EQ(file.instantiations[0].block_name, "BUS1");
  EXPECT_EQ(file.instantiations[0].where.line, 3);

  ASSERT_EQ(file.topologies.size(), 1u);
  const TopologyNode& driver = file.topologies[0];
  EXPECT_EQ(driver.type, "disksim_iodriver");
  EXPECT_EQ(driver.name, "driver0");
  ASSERT_EQ(driver.children.size(), 1u);
  ASSERT_EQ(driver.children[0].children.size(), 2u);
  EXPECT_EQ(driver.children[0].children[1].name, "disk1");
  EXPECT_EQ(driver.children[0].children[1].where.line, 7);
  EXPECT_TRUE(driver.children[0].children[1].children.empty());
}

TEST(LibparamTest, FollowsSourceRelativeToTheIncludingFile) {
  TempDir dir;
  dir.Write("specs/m.model", "dm_disk M {\n  Number of cylinders = 8057\n}\n");
  dir.Write("specs/d.diskspecs", "disksim_disk D {\n  Model = source m.model,\n  Print stats = 1\n}\n");
  const std::string parv = dir.Write("x.parv", "# top\nsource specs/d.diskspecs\ndisksim_bus B { type = 1 }\n");

  const ParamFile file = ParseFile(parv);
  ASSERT_EQ(file.blocks.size(), 2u);
  const Block& disk = file.blocks[0];
  EXPECT_EQ(disk.name, "D");
  EXPECT_EQ(std::filesystem::path(disk.where.file).filename(), "d.diskspecs");
  const Value& model = disk.Find("Model")->value;
  ASSERT_EQ(model.kind, Value::Kind::kBlock);
  EXPECT_EQ(model.block->type, "dm_disk");
  EXPECT_EQ(model.block->name, "M");
  const Param* cylinders = model.block->Find("Number of cylinders");
  EXPECT_EQ(std::filesystem::path(cylinders->where.file).filename(), "m.model");
  EXPECT_EQ(cylinders->where.line, 2);
  EXPECT_EQ(disk.Find("Print stats")->where.line, 3);  // back in the includer after the model
  EXPECT_EQ(file.blocks[1].name, "B");
  EXPECT_EQ(file.blocks[1].where.file, parv);
  EXPECT_EQ(file.blocks[1].where.line, 3);
}

TEST(LibparamTest, ReportsTruncatedBlock) {
  EXPECT_EQ(ErrorOf("disksim_bus B {\n  type = 1,\n"),
            "t.parv:2: the end of the input comes inside block 'disksim_bus B' opened at t.parv:1");
  EXPECT_EQ(ErrorOf("disksim_bus B {\n  type = 1,\n  Zones = [ 1, 2"),
            "t.parv:3: the end of the input comes inside the list of 'Zones' opened at t.parv:3");
  EXPECT_EQ(ErrorOf("disksim_bus B {\n  type ="), "t.parv:2: expected a value for 'type', found the end of the input");
  EXPECT_EQ(ErrorOf("topology disksim_iodriver d [ disksim_bus b [ "),
            "t.parv:1: the end of the input comes inside the topology of 'b' opened at t.parv:1");
}

TEST(LibparamTest, ReportsTruncatedSourcedFileInThatFile) {
  TempDir dir;
  dir.Write("m.model", "dm_disk M {\n  Number of cylinders = 8057,\n");
  const std::string specs =
      dir.Write("d.diskspecs", "disksim_disk D {\n  Model = source m.model,\n  Print stats = 1\n}\n");
  try {
    ParseFile(specs);
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string model = dir.path() + "/m.model";
    EXPECT_EQ(std::string(e.what()), model + ":2: the end of " + model + " comes inside block 'dm_disk M' opened at " +
                                         model + ":1");
  }
}

TEST(LibparamTest, ReportsMissingEquals) {
  EXPECT_EQ(ErrorOf("disksim_bus B {\n  type = 1,\n  Arbitration time 0.0\n}\n"),
            "t.parv:3: expected '=' after key 'Arbitration time', found '0.0'");
  EXPECT_EQ(ErrorOf("disksim_bus B {\n  type = 1\n  Print stats = 0\n}\n"),
            "t.parv:3: expected ',' or '}' after the value of 'type' in block 'disksim_bus B', found 'Print'");
}

TEST(LibparamTest, ReportsGarbage) {
  EXPECT_EQ(ErrorOf("disksim_bus B {\n  type = 1\x01\n}\n"),
            "t.parv:2: unexpected byte 0x01 (not a DiskSim parameter file?)");
  EXPECT_EQ(ErrorOf("\x7f" "ELF\x02\x01\x01"), "t.parv:1: unexpected byte 0x7f (not a DiskSim parameter file?)");
  EXPECT_EQ(ErrorOf("disksim_bus B {\n  type : 1\n}"), "t.parv:2: unexpected character ':'");
  EXPECT_EQ(ErrorOf("} disksim_bus B { }"),
            "t.parv:1: expected a block type at top level (TYPE NAME { ... }, instantiate, topology), found '}'");
  EXPECT_EQ(ErrorOf("disksim_bus B { type = 1 }\ndisksim_bus B { type = 2 }"),
            "t.parv:2: block 'B' defined twice (first at t.parv:1)");
  EXPECT_EQ(ErrorOf("disksim_bus B { type = 1, type = 2 }"),
            "t.parv:1: key 'type' given twice in block 'disksim_bus B' (first at line 1)");
  EXPECT_EQ(ErrorOf("disksim_bus B { n = 99999999999999999999999 }"),
            "t.parv:1: number '99999999999999999999999' is out of range");
  EXPECT_EQ(ErrorOf("instantiate [ a ] at B"), "t.parv:1: expected 'as' after 'instantiate [ ... ]', found 'at'");
}

// DiskSim's ranges of names, in instantiate lists and in value lists (a logorg's devices).
TEST(LibparamTest, ExpandsRangesOfNames) {
  const ParamFile file = ParseText(
      "disksim_logorg L { devices = [ disk0 .. disk2, x ] }\ninstantiate [ bus1 .. bus3, c ] as B\n", "t.parv");
  ASSERT_EQ(file.instantiations.size(), 1u);
  EXPECT_EQ(file.instantiations[0].instances, (std::vector<std::string>{"bus1", "bus2", "bus3", "c"}));
  const Param* devices = file.blocks[0].Find("devices");
  ASSERT_NE(devices, nullptr);
  std::vector<std::string> names;
  for (const Value& v : devices->value.items) names.push_back(v.text);
  EXPECT_EQ(names, (std::vector<std::string>{"disk0", "disk1", "disk2", "x"}));
  EXPECT_EQ(ErrorOf("instantiate [ disk3 .. disk1 ] as B"),
            "t.parv:1: range 'disk3 .. disk1' must count up, by at most 65536 names");
  EXPECT_EQ(ErrorOf("instantiate [ disk0 .. bus4 ] as B"),
            "t.parv:1: range 'disk0 .. bus4': both ends must be one name followed by a number");
  EXPECT_EQ(ErrorOf("instantiate [ disk0 .. ] as B"), "t.parv:1: expected the range's last name after '..', found ']'");
}

TEST(LibparamTest, ReportsUnknownSourceFile) {
  EXPECT_EQ(ErrorOf("# x\nsource nothere.diskspecs\n", "specs/t.parv"),
            "specs/t.parv:2: cannot open source file 'nothere.diskspecs' (looked for specs/nothere.diskspecs)");
  EXPECT_EQ(ErrorOf("disksim_disk D { Model = source }"), "t.parv:1: 'source' must be followed by a file name");
}

TEST(LibparamTest, ReportsSourceCycleInsteadOfLooping) {
  TempDir dir;
  const std::string self = dir.Write("self.parv", "source self.parv\n");
  try {
    ParseFile(self);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("source files nested more than 32 deep"), std::string::npos) << e.what();
  }
}

TEST(LibparamTest, BoundsNesting) {
  const std::string deep = "disksim_bus B { x = " + std::string(10000, '[') + std::string(10000, ']') + " }";
  EXPECT_EQ(ErrorOf(deep), "t.parv:1: blocks and lists nested more than 64 deep");
}

TEST(LibparamTest, EmptyInputHasNothing) {
  const ParamFile file = ParseText("# only a comment\n", "t.parv");
  EXPECT_TRUE(file.blocks.empty() && file.instantiations.empty() && file.topologies.empty());
}

TEST(LibparamTest, MissingFileIsAnInputError) {
  EXPECT_THROW(ParseFile("/nonexistent/x.parv"), InputError);
}

// Any prefix or corruption of a valid file parses or fails with InputError, never
// crashes or loops.
TEST(LibparamTest, SurvivesTruncationAndCorruption) {
  const std::string text(kDisk);
  for (size_t n = 0; n <= text.size(); ++n) {
    try {
      ParseText(text.substr(0, n), "t.parv");
    } catch (const InputError&) {
    }
  }
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    std::string mutated = text;
    for (int k = 0; k < 3; ++k) mutated[rng() % mutated.size()] = static_cast<char>(rng() % 256);
    try {
      ParseText(mutated, "t.parv");
    } catch (const InputError&) {
    }
  }
}

}  // namespace
}  // namespace ziosim::libparam
