// OpenZFS tunables, declared once: name (the module parameter's real name, or
// a `ziosim_` name for an era switch that has no tunable of its own), type,
// unit, default and a one-line description. The same table drives `--set`,
// era profiles, `ziosim profiles`, the Python API and validation: an unknown
// name or a value out of range is an InputError.
//
// Components copy the values they need when they are built; nothing reads the
// table on the hot path.
#ifndef ZIOSIM_SIM_ZFS_TUNABLES_H_
#define ZIOSIM_SIM_ZFS_TUNABLES_H_

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ziosim {

enum class TunableKind { kInt, kBytes, kBool, kChoice };

struct TunableDef {
  std::string_view name;
  TunableKind kind;
  std::string_view unit;     // "bytes", "us", "I/Os", "" ...
  std::string_view fallback; // value when no profile sets it (OpenZFS 2.2 default)
  std::string_view choices = {};  // kChoice: '|'-separated allowed values; empty: any
                                  // non-empty name (a registry checks it when used)
  int64_t min = 0;           // kInt / kBytes
  int64_t max = INT64_MAX;
  std::string_view doc;
};

// Every tunable ziosim knows, in a stable order.
std::span<const TunableDef> TunableTable();
const TunableDef* FindTunable(std::string_view name);
// The values `def` accepts, for listings: "1..1000", "0..16M", "deadline|class", "true|false".
std::string TunableValues(const TunableDef& def);
// Known tunable names close to `name` (a typo, another case, a FreeBSD sysctl
// name), best first; at most `max` of them.
std::vector<std::string> SuggestTunables(std::string_view name, size_t max = 3);

class Tunables {
 public:
  // All tunables at their fallback values.
  Tunables();

  // Sets `name` from text ("10", "128K", "true", "rotor"). `origin` names where the
  // setting came from ("--set", "profiles/freebsd-10.toml:12") for error messages.
  void Set(std::string_view name, std::string_view value, std::string_view origin);
  int64_t Int(std::string_view name) const;   // kInt, kBytes and kBool (0/1)
  bool Bool(std::string_view name) const { return Int(name) != 0; }
  const std::string& Choice(std::string_view name) const;
  // The value as text, as `ziosim profiles` prints it.
  std::string Text(std::string_view name) const;

 private:
  std::map<std::string, std::string, std::less<>> text_;
  std::map<std::string, int64_t, std::less<>> ints_;
};

// An era profile: a named bundle of tunable values (models/profiles/NAME.toml).
struct EraProfile {
  std::string name;
  std::string description;
  std::vector<std::pair<std::string, std::string>> settings;  // in file order
};

// Folder of the profile files (compiled in as ZIOSIM_PROFILES_DIR).
std::string ProfilesDir();
// The profile names (file names without .toml), sorted by name with numbers
// compared as numbers (freebsd-9 before freebsd-10); reads no file.
std::vector<std::string> ProfileNames();
// Reads one profile file: `description = "..."` and a [tunables] table whose
// values are strings, integers or booleans. Every value is checked against the
// table; any error is an InputError "FILE:LINE: name: what is wrong".
EraProfile LoadProfileFile(const std::string& path);
// The same for any bundle of tunables in that format: `what` names the kind of
// file in messages ("profile", "host profile"); a non-empty `only_prefix`
// refuses, at its line, a tunable whose name does not start with it.
EraProfile LoadTunableFile(const std::string& path, std::string_view what, std::string_view only_prefix);
// Known profiles, in ProfileNames() order; throws InputError if a profile file is malformed.
std::vector<EraProfile> EraProfiles();
// Tunables of profile `name` (InputError listing the known names if unknown):
// the fallbacks with the profile's settings applied. `name` may also be a path
// to a profile file (anything with a '/' or ending in ".toml").
Tunables ProfileTunables(std::string_view name);
// The tunables of a run: profile `profile`, then `settings` in order (errors
// name --set), then the ARC size when `arc_max_bytes` > 0 (errors name --arc-max).
Tunables RunTunables(std::string_view profile, const std::vector<std::pair<std::string, std::string>>& settings,
                     int64_t arc_max_bytes = 0);
// The profile a run uses when none is given.
inline constexpr std::string_view kDefaultProfile = "openzfs-2.2";

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_TUNABLES_H_
