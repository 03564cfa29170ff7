// ziosim: a discrete-event simulator of ZFS read I/O.
#include <iostream>

#include "sim/zfs/vdev/mirror_policy/plugin_policy.h"
#include "sim/cli/commands.h"
#include "sim/cli/front_command.h"
#include "sim/core/status.h"

int main(int argc, char** argv) {
  CLI::App app{"ziosim: a discrete-event simulator of ZFS read I/O"};
  app.set_version_flag("--version", "ziosim " ZIOSIM_VERSION);
  app.require_subcommand(1);
  app.fallthrough();  // --policy-plugin may also follow the command's name
  app.add_option("--policy-plugin", "Load a mirror policy plug-in (a C shared library, see "
                                    "sim/zfs/vdev/mirror_policy/plugin/ziosim_mirror_plugin.h); select it with --set mirror_policy=NAME")
      ->each([](const std::string& path) { ziosim::LoadMirrorPolicyPlugin(path); })
      ->trigger_on_parse();
  ziosim::cli::AddDrivesCommand(app);
  ziosim::cli::AddValidateDisksimCommand(app);
  for (const ziosim::cli::FrontCommand& c : ziosim::cli::FrontCommands()) ziosim::cli::AddFrontCommand(app, c);
  ziosim::cli::AddRunCommand(app);
  ziosim::cli::AddOptionsCommand(app);
  ziosim::cli::AddProfilesCommand(app);
  ziosim::cli::AddTunablesCommand(app);
  ziosim::cli::AddRaidzMapCommand(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;  // a bad command line is bad input
  } catch (const ziosim::InputError& e) {
    std::cerr << "ziosim: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {  // InternalError (a run invariant failed) or another bug
    std::cerr << "ziosim: internal error: " << e.what() << "\n";
    return 70;  // EX_SOFTWARE: a bug, not the user's fault
  }
  return 0;
}
