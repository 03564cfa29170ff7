// The two kinds of error, in one place. Errors that a user caused (a bad spec,
// a malformed trace line, an unknown drive) are thrown as InputError (or a
// subclass of it: FatalTraceError) with a
// message that names the file, line and field: the CLI prints the message alone
// and exits with status 2; the Python module raises ValueError with the same
// text. A broken invariant (sim/core/invariants.h) is a bug in the simulator,
// never the user's fault: InternalError, which the CLI prints as
// "ziosim: internal error: MESSAGE" with exit status 70 (EX_SOFTWARE) and the
// Python module raises as RuntimeError("internal error: MESSAGE").
#ifndef ZIOSIM_SIM_CORE_STATUS_H_
#define ZIOSIM_SIM_CORE_STATUS_H_

#include <stdexcept>
#include <string>

namespace ziosim {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
  // "FILE:LINE: MESSAGE", the form compilers use, so editors can jump to it.
  InputError(const std::string& file, int line, const std::string& message)
      : std::runtime_error(file + ":" + std::to_string(line) + ": " + message) {}
};

// A value of the wrong type for its option (text where a number belongs, a
// list where a flag belongs): an InputError that Python raises as TypeError.
class InputTypeError : public InputError {
 public:
  explicit InputTypeError(const std::string& message) : InputError(message) {}
};

// A malformed trace line that --skip-bad must not skip, because nothing after
// it can be read without it (a missing fio iolog header).
class FatalTraceError : public InputError {
 public:
  FatalTraceError(const std::string& file, int line, const std::string& message)
      : InputError(file, line, message) {}
};

class InternalError : public std::logic_error {
 public:
  explicit InternalError(const std::string& message) : std::logic_error(message) {}
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_STATUS_H_
