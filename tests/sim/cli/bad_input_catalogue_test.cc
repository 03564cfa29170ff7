// The bad-input catalogue: one row per class of bad input, each run through
// the real `ziosim` binary, asserting exit status 2 and the exact one-line
// message that names the file and line (for files) or the option or field.
// tests/python/test_bad_input.py holds the same classes for the Python API.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>

#include "models/catalog/catalog.h"
#include "models/device/queue_policy.h"
#include "sim/core/text.h"
#include "sim/trace/trace_reader.h"
#include "sim/zfs/tunables.h"
#include "tests/sim/cli/cli_runner.h"

namespace {

using ziosim::testing::CliRun;
using ziosim::testing::RunCli;
using ziosim::testing::TempPath;
using namespace std::string_literals;

struct BadInput {
  std::string name;   // the class of bad input (also the test's name)
  std::string file;   // written to a temporary file $F first (may be empty: an empty file)
  std::string args;   // the command line; $F stands for the file's path
  // The exact stderr line after "ziosim: "; $F as above, and $DRIVES, $PROFILES, $POLICIES, $FORMATS
  // for the lists of known names (which grow as the project does).
  std::string error;
};

void Replace(std::string& text, const std::string& token, const std::string& by) {
  for (size_t at; (at = text.find(token)) != std::string::npos;) text.replace(at, token.size(), by);
}

std::string Expand(std::string text, const std::string& path) {
  Replace(text, "$DRIVES", ziosim::Join(ziosim::CatalogNames()));
  Replace(text, "$PROFILES", ziosim::Join(ziosim::ProfileNames()));
  Replace(text, "$POLICIES", ziosim::QueuePolicyNames());
  Replace(text, "$FORMATS", ziosim::TraceFormatList());
  Replace(text, "$F", path);  // last: the other tokens start with $F too
  return text;
}

void PrintTo(const BadInput& c, std::ostream* os) { *os << c.name; }
const std::string kAscii = " --target wd-re4-1tb --format disksim-ascii";
const std::string kReaders = "readers --pool wd-re4-1tb --readers 1 ";
// The first bytes of an ELF executable: binary garbage with control bytes and a NUL.
const std::string kGarbage = "\x7f" "ELF\x02\x01\x01\x00\x00\x00"s;

// The importer's one-file DiskSim spec with a dm_layout_g4 layout (fuzz corpus), with
// its first `old` replaced by `by`.
std::string G4Spec(const std::string& old = "", const std::string& by = "") {
  std::ifstream in(std::string(ZIOSIM_CATALOG_DIR) + "/../../fuzz/corpus/disksim_import/one_file_g4.disksim");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!old.empty()) text.replace(text.find(old), old.size(), by);
  return text;
}

std::string LineOf(const std::string& text, const std::string& needle) {
  return std::to_string(1 + std::count(text.begin(), text.begin() + text.find(needle), '\n'));
}

const BadInput kCatalogue[] = {
    {"MalformedNumberInATrace", "0.0 0 0 8 1\n0.5 0 8x 8 1\n", "replay $F" + kAscii,
     "$F:2: field blkno: expected an integer, got '8x'"},
    {"MalformedSize", "", kReaders + "--bs 12x",
     "--bs: \"12x\" is not a size: expected a number and an optional unit: K, M, G, T or KiB ... TiB (2^10 steps), KB ... TB (10^3 steps)"},
    {"TruncatedTraceLine", "0.0 0 0 8 1\n0.5 0 8\n", "replay $F" + kAscii,
     "$F:2: field nsectors: missing (a line holds 5 fields: time_ms devno blkno nsectors flags)"},
    {"TruncatedTomlFile", "name = \"x\"\nkind = \"hdd\"\n[hdd]\ncapacity_bytes = { value = 1",
     "disk-bench --drive $F.toml", "$F.toml:4: Error while parsing inline table: encountered end-of-file"},
    // Non-ASCII text is TOML only in strings and comments; toml++ 3.3.0's own check of such a
    // character elsewhere is undefined behaviour, so the file is refused before it parses.
    {"NonAsciiOutsideAString",
     "# read-ahead \u00b5s in a comment\n[pool]\nspec = \"wd-re4-1tb\"  # caf\u00e9\n"
     "note = \"\"\"\n\u00e9\n\"\"\"\n[dataset]\nrecordsize = \u00b5 \"1M\"\n",
     "run $F.toml",
     "$F.toml:8: a non-ASCII character outside a string or a comment (TOML allows it only there)"},
    // toml++ 3.3.0 asserts on this key before reporting it (sim/core/toml.h): the report, not an abort.
    {"MalformedTableHeader", "[pool]\nspec = \"wd-re4-1tb\"\n[= dataset]\n", "run $F.toml",
     "$F.toml:3: Error while parsing key: expected bare key starting character or string delimiter, saw '='"},
    {"UnknownKey", "[pool]\nspec = \"wd-re4-1tb\"\n[dataset]\ncompresion = 2.0\n", "run $F.toml",
     "$F.toml:4: dataset.compresion: unknown key (did you mean compression?)"},
    {"UnknownDrive", "", "disk-bench --drive nosuch-drive",
     "unknown drive \"nosuch-drive\"; known drives: $DRIVES (or a .toml drive file, or disksim:FILE.parv)"},
    {"ImpossibleTopology", "", "readers --pool 'raidz2 wd-re4-1tb wd-re4-1tb' --readers 1",
     "pool spec \"raidz2 wd-re4-1tb wd-re4-1tb\": token 1 \"raidz2\": a raidz2 needs at least 3 disks (got 2)"},
    {"ZeroSize", "", kReaders + "--file-size 0", "--file-size: \"0\" is not a positive size"},
    {"NegativeSize", "", kReaders + "--file-size -4K", "--file-size: \"-4K\" is not a positive size"},
    {"OverflowingSize", "", kReaders + "--file-size 99999999999999999999G",
     "--file-size: \"99999999999999999999G\" is too large (more than 2^63-1 bytes)"},
    {"NanOption", "0.0 0 0 8 1\n", "replay $F" + kAscii + " --speed nan", "--speed: must be a positive number (got nan)"},
    {"NanInToml", "[pool]\nspec = \"wd-re4-1tb\"\n[dataset]\ncompression = nan\n", "run $F.toml",
     "$F.toml:4: dataset.compression: not a finite number"},
    {"EmptyFile", "", "replay $F --target wd-re4-1tb", "$F: the trace is empty, so its format cannot be told"},
    {"BinaryGarbage", kGarbage, "replay $F --target wd-re4-1tb",
     "$F:1: cannot tell the trace format from this line ('\\x7fELF\\x02\\x01\\x01\\x00\\x00\\x00'); pass --format "
     "(one of: $FORMATS)"},
    {"TraceTimeGoingBackwards", "0.0 0 0 8 1\n0.5 0 8 8 1\n0.2 0 16 8 1\n", "replay $F" + kAscii,
     "$F:3: field time: goes backwards: 0.2 ms is before 0.5 ms, the arrival of an earlier request (the trace must "
     "be in arrival order)"},
    {"UnknownTunable", "", kReaders + "--set zfs_nosuch=1",
     "--set: zfs_nosuch: unknown tunable (`ziosim tunables` lists them all)"},
    {"UnknownProfile", "", kReaders + "--profile no-such-era",
     "unknown profile \"no-such-era\"; known profiles: $PROFILES (or a path to a .toml profile file)"},
    {"UnknownMirrorPolicy", "", "readers --pool 'mirror wd-re4-1tb wd-re4-1tb' --readers 1 --set mirror_policy=nosuch",
     "unknown mirror policy 'nosuch' (known: least_pending, load_locality, rotor)"},
    {"UnknownQueuePolicy", "", "disk-bench --drive wd-re4-1tb --policy lifo",
     "--policy: \"lifo\" is not one of $POLICIES"},
    {"BadSetSyntax", "", kReaders + "--set zfs_prefetch_disable",
     "--set: \"zfs_prefetch_disable\" is not NAME=VALUE"},
    {"MissingFile", "", "replay $F.absent --target wd-re4-1tb", "$F.absent: cannot open: No such file or directory"},
    {"DisksimG4TableOfTheWrongShape", G4Spec("Slips = [ 100, 1, 250, 2 ]", "Slips = [ 100, 1, 250 ]"),
     "disk-bench --drive disksim:$F", "$F:" + LineOf(G4Spec(), "Slips =") + ": 'Slips' must list entries of 2 numbers"},
    {"DisksimDiskNotInTheSpec", G4Spec(), "disk-bench --drive disksim:$F#disk7",
     "$F: no disk 'disk7' in its topology; its disks: disk0 (D)"},
};

class BadInputCatalogueTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputCatalogueTest, ExitsWithStatus2AndOneLineNamingTheCulprit) {
  SKIP_WITHOUT_CLI();
  const BadInput& c = GetParam();
  const TempPath file(c.name);
  const TempPath toml(c.name + ".toml");  // for the rows whose parser wants the suffix
  for (const TempPath* p : {&file, &toml}) std::ofstream(p->str(), std::ios::binary) << c.file;
  const CliRun run = RunCli(Expand(c.args, file.str()));
  EXPECT_EQ(run.status, 2) << run.out << run.err;
  EXPECT_EQ(run.err, "ziosim: " + Expand(c.error, file.str()) + "\n");
}

INSTANTIATE_TEST_SUITE_P(Catalogue, BadInputCatalogueTest, ::testing::ValuesIn(kCatalogue),
                         [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });

}  // namespace
