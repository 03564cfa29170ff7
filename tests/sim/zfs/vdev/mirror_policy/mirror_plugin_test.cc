// Mirror policy plug-ins (sim/zfs/vdev/mirror_policy/plugin/ziosim_mirror_plugin.h): the
// worked example, a line-by-line C port of OpenZFS 2.x's vdev_mirror_load(),
// chooses exactly as the built-in load_locality; its patched build (queued
// I/Os counted in the load) is a different policy; bad libraries are refused
// with the file named.
#include "sim/zfs/vdev/mirror_policy/plugin_policy.h"

#include <gtest/gtest.h>

#include <string>

#include "sim/zfs/vdev/mirror_policy/mirror_policy.h"
#include "sim/core/status.h"
#include "sim/workload/block_read.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

using test::ErrorOf;

BlockReadResult RunPolicy(const std::string& policy, int depth, const std::string& pool = "mirror 2xwd-re4-1tb mirror 2xgeneric-ssd") {
  BlockReadOptions o;
  o.pool = pool;
  o.profile = "openzfs-2.1";
  o.settings = {{"mirror_policy", policy}};
  o.pattern = BenchPattern::kRandom;
  o.depth = depth;
  o.count = 3000;
  return RunBlockRead(o);
}

TEST(MirrorPluginTest, PortChoosesExactlyAsTheBuiltIn) {
  ASSERT_EQ(LoadMirrorPolicyPlugin(ZIOSIM_PLUGIN_PORT), "port_load_locality");
  EXPECT_EQ(LoadMirrorPolicyPlugin(ZIOSIM_PLUGIN_PORT), "port_load_locality");  // loading again: a no-op
  for (int depth : {1, 16}) {
    const BlockReadResult builtin = RunPolicy("load_locality", depth);
    const BlockReadResult port = RunPolicy("port_load_locality", depth);
    EXPECT_EQ(port.elapsed_ns, builtin.elapsed_ns) << depth;
    ASSERT_EQ(port.disks.size(), builtin.disks.size());
    for (size_t d = 0; d < port.disks.size(); ++d) {
      EXPECT_EQ(port.disks[d].mirror_chosen, builtin.disks[d].mirror_chosen) << depth << " d" << d;
    }
  }
}

TEST(MirrorPluginTest, PatchIsAPolicyOfItsOwn) {
  ASSERT_EQ(LoadMirrorPolicyPlugin(ZIOSIM_PLUGIN_PATCHED), "patched_load_locality");
  bool listed = false;
  for (const MirrorPolicyInfo& p : MirrorPolicies()) {
    if (p.name == "patched_load_locality") listed = p.doc.find("count queued") != std::string::npos;
  }
  EXPECT_TRUE(listed);
  // 64 random reads on one mirror of HDDs: both children hold their 10 sync reads in the
  // device and the rest wait in ZFS, which only the patched load sees.
  const std::string pool = "mirror 2xwd-re4-1tb";
  const BlockReadResult builtin = RunPolicy("load_locality", 64, pool);
  const BlockReadResult patched = RunPolicy("patched_load_locality", 64, pool);
  EXPECT_NE(patched.elapsed_ns, builtin.elapsed_ns);
}

TEST(MirrorPluginTest, RefusesWhatIsNotAPlugin) {
  EXPECT_NE(ErrorOf([] { LoadMirrorPolicyPlugin("/nonexistent/p.so"); }).find("/nonexistent/p.so: cannot load"),
            std::string::npos);
  // libm is a shared library without the plug-in's symbols.
  const std::string err = ErrorOf([] { LoadMirrorPolicyPlugin("libm.so.6"); });
  EXPECT_NE(err.find("libm.so.6: not a ziosim mirror policy plug-in: no symbol ziosim_mirror_policy_abi"),
            std::string::npos)
      << err;
}

}  // namespace
}  // namespace ziosim
