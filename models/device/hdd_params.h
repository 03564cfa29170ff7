// Everything the HDD model needs to know about one drive. Filled either from
// DiskSim specs (models/disksim/) or from a catalog entry (models/catalog/),
// which derives zones and a seek curve from datasheet figures. Plain data;
// HddParams::Validate() reports an inconsistent set as InputError.
//
// Addresses are 512-byte logical blocks (LBNs); times are integer ns; angles
// are fractions of a revolution.
#ifndef ZIOSIM_MODELS_DEVICE_HDD_PARAMS_H_
#define ZIOSIM_MODELS_DEVICE_HDD_PARAMS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/time.h"

namespace ziosim {

// One recording zone: a cylinder range with a constant number of sectors per track.
struct HddZone {
  int first_cylinder = 0;
  int last_cylinder = 0;  // inclusive
  int sectors_per_track = 0;
  double first_block_offset_sectors = 0;  // angle of physical sector 0 on the zone's first track
  int64_t empty_front_sectors = 0;        // reserved sectors before the zone's first LBN
  int track_skew_sectors = 0;             // start rotation per head switch
  int cylinder_skew_sectors = 0;          // start rotation per cylinder step (instead of a track skew)
  // The parts of the skews below a whole sector (skews given in revolutions).
  double track_skew_fraction_sectors = 0;
  double cylinder_skew_fraction_sectors = 0;
  int64_t spares = 0;                     // unit depends on the sparing scheme
  std::vector<int64_t> slips;             // zone-relative physical sectors (tracks for scheme 1)
  std::vector<std::pair<int64_t, int64_t>> defects;  // (defective, replacement), same units
};

// Where spare space lives (DiskSim dm_layout_g1 "Sparing scheme used"). Slips are
// zone-relative physical sectors (tracks for kTracksPerZone); "slip to end" schemes
// push every later LBN of the zone forward, the others absorb a slip in the spares of
// its own track, cylinder or range.
enum class SparingScheme : int {
  kNone = 0,
  kTracksPerZone = 1,                    // whole spare tracks at each zone's end; slips are track numbers
  kSectorsPerCylinder = 2,               // `spares` sectors at each cylinder's end
  kSectorsPerTrack = 3,                  // `spares` sectors at each track's end
  kSectorsPerCylinderSlipToEnd = 4,      // as 2, slips pushed to the zone's end
  kSectorsPerCylinderAtFront = 5,        // `spares` sectors at each cylinder's front
  kSectorsPerCylinderAtFrontSlipToEnd = 6,
  kDiskEnd = 7,                          // spares at the end of the disk; slips pushed to the zone's end
  kPerRange = 8,                         // spare sectors at the end of each range of `range_size` cylinders
  kZoneEnd = 9,                          // spare sectors at each zone's end
  kZoneEndSlipToEnd = 10,                // as 9, slips also shrinking the zone
};

// The order of tracks within a cylinder (DiskSim "LBN-to-PBN mapping scheme").
enum class TrackOrder : int {
  kConventional = 0,       // head 0 upward on every cylinder
  kSerpentineInZone = 1,   // head order reversed on odd cylinders counted from the zone's first
  kSerpentine = 2,         // head order reversed on odd cylinders (absolute numbers)
};

// A run of LBNs on consecutive sectors of one track, as an explicit layout lists it
// (DiskSim's dm_layout_g2 map file, or its g4 tables expanded).
struct HddExtent {
  int64_t first_lbn = 0;
  int64_t blocks = 0;
  int cylinder = 0;
  int head = 0;
  int first_sector = 0;
  int sectors_per_track = 0;
  // Where the first sector starts and how wide a sector is, in 2^-32 revolutions
  // (DiskSim's dm_angle_t, whose wrap-around the sums here keep).
  uint32_t first_angle = 0;
  uint32_t sector_angle = 0;
};

struct HddLayout {
  int surfaces = 0;   // data heads = tracks per cylinder
  int cylinders = 0;
  // An explicit layout, by LBN from 0 with no gap; when it is not empty it replaces
  // the zones, the sparing scheme and the track order.
  std::vector<HddExtent> extents;
  TrackOrder track_order = TrackOrder::kConventional;
  SparingScheme sparing = SparingScheme::kNone;
  int range_size_cylinders = 1;  // for kPerRange
  std::vector<HddZone> zones;
};

// Seek time as a function of cylinder distance d >= 1 (0 for d = 0).
struct HddSeekModel {
  enum class Kind {
    kTable,       // measured curve: linear interpolation, last segment extrapolated
    kHpl,         // HP's model: d < v1 -> v2 + v3*sqrt(d), else v4 + v5*d; optional table for d <= 10
    kThreePoint,  // datasheet single / average / full-stroke figures: a + b*sqrt(d-1) + c*(d-1)
    kLinear,      // the same three figures joined by straight lines (DiskSim "linear")
    kConstant,    // one time for every move (DiskSim "constant")
  };
  Kind kind = Kind::kThreePoint;
  std::vector<std::pair<int, SimTime>> table;  // (distance in cylinders, seek time), ascending
  // kHpl: v1 in cylinders, v2/v4 in ms, v3 in ms/sqrt(cyl), v5 in ms/cyl; v6 = one-cylinder time or -1.
  double hpl[6] = {0, 0, 0, 0, 0, -1};
  std::vector<SimTime> first_ten;  // kHpl with table: times for d = 1..10
  SimTime single_cylinder_ns = 0;  // kThreePoint and kLinear inputs
  SimTime average_ns = 0;
  SimTime full_stroke_ns = 0;
  SimTime constant_ns = 0;  // kConstant
};

struct HddMechanics {
  double rpm = 7200;
  HddSeekModel seek;
  SimTime head_switch_ns = 0;
  SimTime write_settle_ns = 0;  // added to write positioning; may be negative (DiskSim)
};

// Host-interface and firmware costs. "after read/after write" pairs depend on
// the type of the previous command the drive completed ([0] after a read, [1] after a write).
struct HddInterface {
  SimTime bus_read_block_ns = 0;   // per 512-byte block, disk -> host
  SimTime bus_write_block_ns = 0;  // per 512-byte block, host -> disk
  SimTime per_request_ns = 0;
  SimTime read_hit_ns[2] = {0, 0};
  SimTime read_miss_ns[2] = {0, 0};
  SimTime write_hit_ns[2] = {0, 0};   // used by write-back drives
  SimTime write_miss_ns[2] = {0, 0};  // used by write-through drives
  SimTime read_completion_ns = 0;
  SimTime write_completion_ns = 0;
  SimTime data_prep_ns = 0;
  SimTime first_reselect_ns = 0;
  SimTime other_reselect_ns = 0;
  SimTime read_disconnect_ns[2] = {0, 0};
  SimTime write_disconnect_ns = 0;
  SimTime min_seek_delay_ns = 0;  // floor on positioning of writes that do not continue a write stream
  bool hold_bus_read = false;     // keep the bus while a read's sectors arrive from the media
  double read_watermark = 0;      // fraction; see HddModel for how it becomes sectors
  bool watermark_by_request_size = true;
  bool immediate_partial_hit = true;  // send the cached head of a partial hit at once
  // DiskSim's "extra write disconnect" (HP C2247A). A drive with it writes to the media
  // only once a minimum of a write's data is in its buffer, and a write into the most
  // recently used segment behind a write it does not continue (DiskSim marks it in
  // disk_buffer_select_segment) goes another way: its command takes
  // extradisc_command_ns (the mechanism waits extradisc_seek_delta_ns more), it
  // disconnects (extradisc_disconnect_ns), pauses (extradisc_inter_disconnect_ns,
  // unscaled), reconnects for its data, disconnects again after them
  // (extradisc_second_disconnect_ns) and reconnects for its completion with the
  // "other" reselect.
  bool extra_write_disconnect = false;
  SimTime extradisc_command_ns = 0;
  SimTime extradisc_seek_delta_ns = 0;
  SimTime extradisc_disconnect_ns = 0;
  SimTime extradisc_inter_disconnect_ns = 0;
  SimTime extradisc_second_disconnect_ns = 0;
  // DiskSim's "Never disconnect": the drive keeps the bus from a read's command to its
  // completion, so it pays no reselection; a write-through write still lets the bus go
  // while its sectors are written (DiskSim's disk_buffer_transfer_size).
  bool never_disconnect = false;
  // DiskSim's bus "Arbitration time": paid each time the disk's bus changes hands, to
  // deliver the command and at each reconnection.
  SimTime bus_arbitration_ns = 0;
  // DiskSim's bus: one path the drive and the host take turns on, so a command the host
  // sends while the drive holds it (taking a command, sending data or a completion)
  // reaches the drive once the drive lets it go. Drives from a DiskSim spec have it; a
  // SATA or SAS link with NCQ interleaves commands with data frames, and catalog
  // drives do not.
  bool commands_wait_for_bus = false;
};

struct HddCache {
  bool enabled = true;
  int segments = 1;
  int segment_blocks = 256;
  int max_write_segments = 1;
  bool separate_write_segment = false;
  // Read-ahead scheme ("Buffer continuous read"): 0 none, 1 to track end, 2 to cylinder end,
  // 3 to request end + max_read_ahead, 4 DEC scheme (track after the request, one more on a stream).
  int read_ahead_scheme = 3;
  int min_read_ahead_blocks = 0;
  int max_read_ahead_blocks = 256;
  // DiskSim's "Read-ahead over requested": with a maximum read-ahead of 0, schemes 1-3
  // read a segment's worth from the request's start (0, keeping the requested blocks)
  // or from its end (1, -1); -1 also drops the requested blocks once they are sent.
  int read_ahead_over_requested = 1;
  bool read_ahead_on_idle_hit = false;
  // DiskSim's "Allow almost read hits": a read starting at the block the
  // read-ahead is about to read joins the read-ahead stream.
  bool allow_almost_read_hits = false;
  // Beyond DiskSim: a read starting anywhere ahead inside the read-ahead window
  // also joins it, the head reading through the gap (e.g. RAID-Z parity columns
  // between data columns) instead of stopping, seeking and waiting a revolution.
  // Datasheet drives, which stream sequential reads at media speed, behave so.
  bool join_read_ahead_window = false;
  // DiskSim's "Allow sneaky full/partial read hits": a read whose data are all
  // (full) or partly (partial) in the buffer is sent at once even while a
  // write-back destage holds the arm; otherwise it waits for the arm.
  bool sneaky_full_read_hits = false;
  bool sneaky_partial_read_hits = false;
  // DiskSim's "Allow sneaky intermediate read hits": on a drive with a queue, a read
  // waiting its turn whose data are all in a segment the command in service does not
  // hold is sent from the buffer as soon as the bus is free, out of turn
  // (disk_select_bus_request's values 6 and 4).
  bool sneaky_intermediate_read_hits = false;
  // DiskSim's "Allow write prebuffering": a write that comes while a destage or another
  // command holds the arm takes its data into a free write segment at once
  // (disk_write_arrive's READY_TO_TRANSFER way; with a queue, also later, at a bus
  // release, for one that found none free), completing then with write-back; its
  // sectors are written at its turn. Without it, such a write waits.
  bool write_prebuffering = false;
  // DiskSim's "Preseeking level": how early the arm may leave a read for the next
  // command: 0 once the host has confirmed the completion, 1 once the completion is
  // sent, 2 once the media work is done. DiskSim 4.0 marks the segment of a read
  // that gives the arm up before its completion is confirmed empty, so with 1 or 2
  // that read's data are not hit again (HddDevice's CompleteRead).
  int preseek_level = 0;
  int fast_write_level = 0;  // 0 write-through; 1, 2 write-back
  bool combine_seq_writes = true;
  bool read_hits_on_write_data = true;
  bool stop_prefetch_in_sector = false;  // false: finish the sector under the head first
  // A read-ahead waiting for its sector after repositioning stops only as that sector
  // comes (DiskSim's disk notices a command at its read-ahead's next sector event:
  // disk_buffer_stopable_access sets disk_seek_stoptime to the pending event's time),
  // unless it may stop in a sector. False: it stops at once, the head reading nothing
  // meanwhile (a drive whose firmware takes the command as it comes).
  bool prefetch_stops_at_its_sector = false;
  // A write into the read-ahead's segment stops the read-ahead where it is, even short
  // of its minimum (DiskSim's "Write hit stop prefetch").
  bool write_hit_stop_prefetch = true;
  // Zero-latency access (DiskSim "Immediate buffer read/write"): a head that lands
  // inside a track's wanted sectors starts with the sector under it and wraps around,
  // instead of waiting for the first wanted sector to come round.
  bool zero_latency_reads = false;
  bool zero_latency_writes = false;
  // DiskSim "Read any free blocks": a read miss also buffers the sectors of its first
  // track that pass under the head before the wanted ones, and reads that track with
  // zero latency.
  bool read_any_free_blocks = false;
};

// What DiskSim's positioning-time schedulers (the *_opt queue policies) add to a
// waiting command's estimated positioning: the firmware's work before the arm moves
// (DiskSim's "Read/Write initiation delay"), and how much its age counts ("Timeout
// time/weight", an integer there too). PRI_VSCAN_LBN reads two more: the sweep it
// runs ("Timeout scheduling": 2 ELEVATOR_LBN, 3 CYCLE_LBN, else SSTF_LBN's) and the
// weight of a read or time-critical request, in % of the drive's blocks ("Priority
// scheduling").
struct HddScheduler {
  SimTime read_initiation_delay_ns = 0;
  SimTime write_initiation_delay_ns = 0;
  int age_weight = 0;
  int timeout_scheduling = 0;
  int priority_scheduling = 0;
};

struct HddParams {
  std::string name;
  std::string source;  // where the values come from (file, datasheet), for reports
  int queue_depth = 1;
  HddScheduler scheduler;
  HddLayout layout;
  HddMechanics mechanics;
  HddInterface interface;
  HddCache cache;

  // Throws InputError naming `source` and the offending field if the set is inconsistent
  // (no zones, overlapping zones, zero sectors per track, non-positive rpm, ...).
  void Validate() const;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_HDD_PARAMS_H_
