// The mirror policy registry: name -> (doc, tunables, factory).
//
// OpenZFS never had a pluggable mirror policy; vdev_mirror.c was rewritten
// three times instead (rotor -> ZoL least-pending -> FreeBSD load+locality,
// see rotor_policy.cc, least_pending_policy.cc, load_locality_policy.cc). The
// registry lets a run pick any era's rule with `--set mirror_policy=NAME`,
// and lets experiments (C++ or Python) add their own under a new name.
//
// The built-in policies are registered the first time any registry function
// runs, by a function-local static, not by static initialisers in the policy
// files: those would sit in object files of a static library that nothing
// references, and the linker would drop them. Calling each built-in's info
// function from here is what pulls its object file into the link.
//
// Thread-safety: the registry is guarded by a mutex, so Python threads may
// register while a simulation is being set up. Factories run outside the lock
// (a Python factory may itself call back into the registry).
#include "sim/zfs/vdev/mirror_policy/mirror_policy.h"

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/status.h"
#include "sim/core/text.h"

namespace ziosim {

// Defined by the built-in policies, one per file.
MirrorPolicyInfo RotorMirrorPolicyInfo();
MirrorPolicyInfo LeastPendingMirrorPolicyInfo();
MirrorPolicyInfo LoadLocalityMirrorPolicyInfo();

namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, MirrorPolicyInfo, std::less<>> policies;  // by name: MirrorPolicies() is sorted
};

// Never destroyed: a policy may be created from another static's destructor.
Registry& GetRegistry() {
  static Registry* const registry = [] {
    auto* r = new Registry;
    for (MirrorPolicyInfo info :
         {RotorMirrorPolicyInfo(), LeastPendingMirrorPolicyInfo(), LoadLocalityMirrorPolicyInfo()}) {
      std::string name = info.name;
      r->policies.emplace(std::move(name), std::move(info));
    }
    return r;
  }();
  return *registry;
}

std::string KnownNames(const Registry& r) {
  std::string names;
  for (const auto& [name, info] : r.policies) {
    if (!names.empty()) names += ", ";
    names += name;
  }
  return names;
}

}  // namespace

void RegisterMirrorPolicy(MirrorPolicyInfo info) {
  if (info.name.empty()) throw InputError("mirror policy: the name must not be empty");
  if (!info.factory) throw InputError("mirror policy '" + info.name + "': no factory given");
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::string name = info.name;
  r.policies.insert_or_assign(std::move(name), std::move(info));
}

std::vector<MirrorPolicyInfo> MirrorPolicies() {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<MirrorPolicyInfo> out;
  out.reserve(r.policies.size());
  for (const auto& [name, info] : r.policies) out.push_back(info);
  return out;
}

std::unique_ptr<MirrorPolicy> MakeMirrorPolicy(std::string_view name, const Tunables& tunables) {
  MirrorPolicyFactory factory;
  {
    Registry& r = GetRegistry();
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.policies.find(name);
    if (it == r.policies.end()) {
      std::vector<std::string_view> names;
      for (const auto& [known, info] : r.policies) names.push_back(known);
      const std::vector<std::string> close = ClosestWords(Lower(name), names, 3);
      throw InputError("unknown mirror policy '" + std::string(name) + "'" +
                       (close.empty() ? "" : "; did you mean " + Join(close, " or ") + "?") + " (known: " +
                       KnownNames(r) + ")");
    }
    factory = it->second.factory;
  }
  std::unique_ptr<MirrorPolicy> policy = factory(tunables);
  if (policy == nullptr) {
    throw InputError("mirror policy '" + std::string(name) + "': its factory returned no policy");
  }
  return policy;
}

}  // namespace ziosim
