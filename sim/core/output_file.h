// Output pieces the workloads and subcommands share: a file that appears only
// once it is complete, and exact number formatting for CSV.
#ifndef ZIOSIM_SIM_CORE_OUTPUT_FILE_H_
#define ZIOSIM_SIM_CORE_OUTPUT_FILE_H_

#include <fstream>
#include <ostream>
#include <string>

namespace ziosim {

// Rows go to a temporary sibling, renamed over the target by Commit(). If the
// run fails first, the destructor deletes the temporary and the target is
// untouched: nothing half-written.
class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return out_; }
  // Throws InputError naming the file if it cannot be finished.
  void Commit();

 private:
  std::string path_;
  std::string temp_path_;
  std::ofstream out_;
  bool committed_ = false;
};

// Shortest text that reads back as the same double, so a CSV loses nothing.
void PutNumber(std::ostream& out, double v);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_OUTPUT_FILE_H_
