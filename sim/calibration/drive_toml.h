// Writing a drive in the catalog's file format (models/catalog/*.toml): every
// figure with its `source` or, for an assumption, `estimated` reason, so that
// a calibrated drive loads through the same path as a hand-written one.
#ifndef ZIOSIM_SIM_CALIBRATION_DRIVE_TOML_H_
#define ZIOSIM_SIM_CALIBRATION_DRIVE_TOML_H_

#include <span>
#include <string>

#include "models/catalog/catalog.h"

namespace ziosim {

// `kind` is "hdd" or "ssd"; `values` are that section's figures, in order.
std::string DriveToml(std::string_view kind, const std::string& name, const std::string& description,
                      std::span<const CatalogValue> values);

// `value` printed as the catalog reads it: integer keys as integers, others
// with six significant digits.
std::string CatalogNumber(const CatalogValue& value);

// One figure printed with a printf `format` ("%.3f ms"), for the provenance
// notes and messages a fit writes.
std::string FormatFigure(const char* format, double value);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CALIBRATION_DRIVE_TOML_H_
