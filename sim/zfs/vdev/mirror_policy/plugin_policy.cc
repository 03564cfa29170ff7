#include "sim/zfs/vdev/mirror_policy/plugin_policy.h"

#include <dlfcn.h>

#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "sim/zfs/vdev/mirror_policy/mirror_policy.h"
#include "sim/zfs/vdev/mirror_policy/plugin/ziosim_mirror_plugin.h"
#include "sim/core/status.h"

namespace ziosim {
namespace {

// The entry points of one loaded library. Libraries stay loaded for the process's life.
struct PluginApi {
  std::string path;
  std::string name;
  int (*select)(const ziosim_mirror_child_t*, int, const ziosim_mirror_io_t*, void*) = nullptr;
  void* (*create)() = nullptr;
  void (*destroy)(void*) = nullptr;
};

class PluginPolicy final : public MirrorPolicy {
 public:
  explicit PluginPolicy(const PluginApi* api) : api_(api), state_(api->create ? api->create() : nullptr) {}
  ~PluginPolicy() override {
    if (api_->destroy) api_->destroy(state_);
  }

  int Choose(std::span<const MirrorChildState> children, const MirrorRead& io) override {
    children_.resize(children.size());  // grows once per mirror width, then reused
    for (size_t i = 0; i < children.size(); ++i) {
      const MirrorChildState& c = children[i];
      children_[i] = {c.readable ? 1 : 0, c.rotational ? 1 : 0, c.in_device, c.queued, c.last_offset};
    }
    const ziosim_mirror_io_t read{io.offset, io.size, io.mirror_offset, static_cast<int>(io.priority), io.now_ns};
    const int c = api_->select(children_.data(), static_cast<int>(children_.size()), &read, state_);
    if (c < 0 || c >= static_cast<int>(children.size()) || !children[static_cast<size_t>(c)].readable) {
      throw std::logic_error("mirror policy plug-in " + api_->path + " chose child " + std::to_string(c) +
                             ", which is not a readable child of " + std::to_string(children.size()));
    }
    return c;
  }

 private:
  const PluginApi* api_;
  void* state_;
  std::vector<ziosim_mirror_child_t> children_;
};

template <typename Fn>
Fn Symbol(void* lib, const std::string& path, const char* name, bool required) {
  void* sym = dlsym(lib, name);
  if (sym == nullptr && required) {
    throw InputError(path + ": not a ziosim mirror policy plug-in: no symbol " + name +
                     " (see sim/zfs/vdev/mirror_policy/plugin/ziosim_mirror_plugin.h)");
  }
  return reinterpret_cast<Fn>(sym);
}

}  // namespace

std::string LoadMirrorPolicyPlugin(const std::string& path) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<PluginApi>> loaded;  // by path
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = loaded.find(path); it != loaded.end()) return it->second->name;
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) throw InputError(path + ": cannot load the mirror policy plug-in: " + dlerror());
  auto api = std::make_unique<PluginApi>();
  api->path = path;
  const auto abi = Symbol<int (*)()>(lib, path, "ziosim_mirror_policy_abi", true);
  if (abi() != ZIOSIM_MIRROR_PLUGIN_ABI) {
    throw InputError(path + ": plug-in ABI " + std::to_string(abi()) + ", this ziosim loads ABI " +
                     std::to_string(ZIOSIM_MIRROR_PLUGIN_ABI) + " (rebuild it against ziosim_mirror_plugin.h)");
  }
  const char* name = Symbol<const char* (*)()>(lib, path, "ziosim_mirror_policy_name", true)();
  if (name == nullptr || *name == '\0') throw InputError(path + ": ziosim_mirror_policy_name() returned no name");
  api->name = name;
  api->select = Symbol<decltype(api->select)>(lib, path, "ziosim_mirror_child_select", true);
  api->create = Symbol<decltype(api->create)>(lib, path, "ziosim_mirror_policy_create", false);
  api->destroy = Symbol<decltype(api->destroy)>(lib, path, "ziosim_mirror_policy_destroy", false);
  const auto doc_fn = Symbol<const char* (*)()>(lib, path, "ziosim_mirror_policy_doc", false);
  for (const MirrorPolicyInfo& p : MirrorPolicies()) {
    if (p.name == api->name) {
      throw InputError(path + ": policy name '" + api->name + "' is taken (" + p.doc + ")");
    }
  }
  const PluginApi* raw = api.get();
  RegisterMirrorPolicy({.name = api->name,
                        .doc = (doc_fn != nullptr && doc_fn() != nullptr ? std::string(doc_fn()) : "a plug-in") +
                               " [plug-in " + path + "]",
                        .tunables = "",
                        .factory = [raw](const Tunables&) { return std::make_unique<PluginPolicy>(raw); }});
  const std::string registered = api->name;
  loaded.emplace(path, std::move(api));
  return registered;
}

}  // namespace ziosim
