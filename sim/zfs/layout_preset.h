// How files came to be on disk, as the allocation model (allocator.h) replays
// it. Presets (`ParseLayoutPreset`):
//   sequential       one writer per file, files one after another
//   writers:N        the files written by N concurrent writers (txg-sized runs interleave)
//   shuffle:K        one writer, blocks reordered within windows of K (pre-2016 issue taskq)
//   fragmented:PCT   the pool PCT % full of old data with free space in scattered holes
//   sendrecv         rewritten by zfs send | zfs recv: one stream, file after file
#ifndef ZIOSIM_SIM_ZFS_LAYOUT_PRESET_H_
#define ZIOSIM_SIM_ZFS_LAYOUT_PRESET_H_

#include <string>
#include <string_view>

namespace ziosim {

struct LayoutPreset {
  enum class Kind { kSequential, kWriters, kShuffle, kFragmented, kSendRecv } kind = Kind::kSequential;
  int param = 0;
  std::string text;
};
// Throws InputError naming the preset and listing the valid forms.
LayoutPreset ParseLayoutPreset(std::string_view text);

// What a preset asks of the allocation model.
struct WriteOrder {
  double old_data_fill = 0;  // share of the pool taken by old data (fragmented)
  int writers = 1;           // files written at once, each its share of a txg
  int shuffle_window = 1;    // blocks of a run allocated in random order within windows of this many
  bool l1_after_file = false;  // a file's L1s written once after all its data, not per txg (sendrecv)
};
// Throws InputError, as ParseLayoutPreset does, for a fragmented fill out of
// range (a preset built by hand).
WriteOrder WriteOrderOf(const LayoutPreset& preset);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_LAYOUT_PRESET_H_
