// Every figure of the shipped catalog names a source or says why it is an
// estimate, and the counts the catalog reports are the files' own.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "models/catalog/catalog.h"
#include "tests/models/catalog/figure_provenance.h"

namespace ziosim {
namespace {

using testing::ReadTomlProvenance;
using testing::TomlFigure;
using testing::TomlProvenance;

std::string CatalogFile(const std::string& name) {
  return (std::filesystem::path(CatalogDir()) / (name + ".toml")).string();
}

TEST(CatalogProvenanceTest, EveryFigureOfEveryCatalogFileHasSourceOrEstimated) {
  ASSERT_FALSE(CatalogNames().empty());
  for (const std::string& name : CatalogNames()) {
    const TomlProvenance file = ReadTomlProvenance(CatalogFile(name));
    EXPECT_FALSE(file.figures.empty()) << name;
    for (const TomlFigure& f : file.figures) {
      EXPECT_TRUE(f.source || f.estimated) << name << ".toml: " << f.key << " has neither source nor estimated";
      EXPECT_FALSE(f.source && f.estimated) << name << ".toml: " << f.key << " has both source and estimated";
    }
  }
}

TEST(CatalogProvenanceTest, CountsAreTheFilesOwn) {
  for (const DriveSpec& d : CatalogDrives()) {
    const TomlProvenance file = ReadTomlProvenance(d.file);
    const FigureCounts counts = d.CountFigures();
    EXPECT_EQ(counts.sourced, file.Sourced()) << d.name;
    EXPECT_EQ(counts.estimated, file.Estimated()) << d.name;
    EXPECT_EQ(counts.total(), static_cast<int>(file.figures.size())) << d.name;
    EXPECT_EQ(counts.total(), static_cast<int>(d.values.size())) << d.name;
  }
}

TEST(CatalogProvenanceTest, CountFiguresSplitsByProvenance) {
  DriveSpec d;
  EXPECT_EQ(d.CountFigures().total(), 0);  // a DiskSim or fixed drive has no figures of its own
  d.values = {{.key = "a", .estimated = true}, {.key = "b"}, {.key = "c"}};
  EXPECT_EQ(d.CountFigures().sourced, 2);
  EXPECT_EQ(d.CountFigures().estimated, 1);
}

}  // namespace
}  // namespace ziosim
