// The drive catalog: one TOML file per drive in models/catalog/, each figure
// with its provenance. A figure is written as
//
//   rpm = { value = 7200, source = "smartctl (drives.md)" }       # found in a reference
//   surfaces = { value = 10, estimated = "5 platters assumed" }   # not found: say why
//
// and a figure without either is refused, so every number the simulator uses
// can be traced. HDD entries give datasheet-level figures, from which the loader
// derives the full HddParams (models/catalog/hdd_from_datasheet.h); SSD entries
// fill SsdParams directly. Errors are InputError "FILE:LINE: key: what is wrong".
#ifndef ZIOSIM_MODELS_CATALOG_CATALOG_H_
#define ZIOSIM_MODELS_CATALOG_CATALOG_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/device/device.h"
#include "models/device/fixed_device.h"
#include "models/device/hdd_params.h"
#include "models/device/ssd_params.h"
#include "sim/core/simulation.h"

namespace ziosim {

// One figure of a drive file as written there.
struct CatalogValue {
  std::string key;  // e.g. "outer_mb_s"
  double value = 0;
  bool estimated = false;
  std::string provenance;  // the source, or why it is an estimate
};

// How many of a drive file's figures name a source and how many are estimates.
struct FigureCounts {
  int sourced = 0;
  int estimated = 0;
  int total() const { return sourced + estimated; }
};

struct DriveSpec {
  enum class Kind { kHdd, kSsd, kFixed };
  Kind kind = Kind::kHdd;
  std::string name;
  std::string description;
  std::string file;  // where it was loaded from
  HddParams hdd;     // for kHdd
  SsdParams ssd;     // for kSsd
  FixedDeviceParams fixed;  // for kFixed (the cross-check's reference device)
  std::vector<CatalogValue> values;  // the file's figures in a fixed order; empty for DiskSim drives
  // The order the drive serves its queue in, where its spec says (a DiskSim disk
  // scheduler the model has: FCFS as fifo, the LBN-ordered ones as themselves);
  // otherwise NativeQueuePolicy's.
  std::optional<QueuePolicy> queue_order;

  // The figure named `key`, or nullptr.
  const CatalogValue* Find(std::string_view key) const;

  // `values` split by provenance: what `ziosim drives` and ziosim.drives() report
  // (0 and 0 for DiskSim and fixed drives, which have no figures of their own).
  FigureCounts CountFigures() const;
};

// Folder of the catalog's .toml files (compiled in as ZIOSIM_CATALOG_DIR).
std::string CatalogDir();

// A catalog name ("hgst-nas-4tb"), "disksim:PATH.parv" (a DiskSim drive spec),
// "fixed:latency=...,bandwidth=..." (the cross-check's reference device, fixed_device.h), or
// a path to a .toml drive file (anything else with a '/' or ending in ".toml").
// Throws InputError for an unknown name (listing the known ones) or a bad file.
DriveSpec ResolveDrive(const std::string& name_or_path);

// Loads one drive file.
DriveSpec LoadDriveFile(const std::string& path);

// Every catalog entry, sorted by name.
std::vector<DriveSpec> CatalogDrives();

// The catalog's names, sorted.
std::vector<std::string> CatalogNames();

// How the drive itself orders its queue: as its spec says (queue_order), else an HDD
// with NCQ (queue depth > 1) by shortest positioning time, anything else in arrival order.
QueuePolicy NativeQueuePolicy(const DriveSpec& spec);

// An HddDevice, SsdDevice or FixedDevice for `spec`; `policy` and `spindle_phase`
// (the platter's angle at time 0, in turns) apply to HDDs (an SSD serves in arrival order).
std::unique_ptr<Device> MakeDevice(Simulation* sim, const std::string& device_name, const DriveSpec& spec,
                                   QueuePolicy policy, double spindle_phase = 0.0);

// The spindle phase of drive `device_name` in a run seeded `run_seed`: uniform in
// [0, 1). Separate drives spin unsynchronised, so a pool's drives start at
// independent angles; the same seed and name give the same angle.
double SpindlePhase(uint64_t run_seed, const std::string& device_name);

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_CATALOG_CATALOG_H_
