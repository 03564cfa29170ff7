// Mirror read policies written in Python: a MirrorPolicy whose Choose() calls
// a Python function under the GIL, registered in the C++ registry
// (RegisterMirrorPolicy) so that `mirror_policy=NAME` selects it like a
// built-in one.
#ifndef ZIOSIM_BINDINGS_SRC_PYTHON_POLICY_H_
#define ZIOSIM_BINDINGS_SRC_PYTHON_POLICY_H_

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

namespace ziosim::python {

// Thrown out of the simulation when a Python policy raises or returns a bad
// index; the module's exception translator turns it into a RuntimeError (with
// the policy's own exception as __cause__ when there is one).
class PolicyCallbackError : public std::runtime_error {
 public:
  explicit PolicyCallbackError(const std::string& message) : std::runtime_error(message) {}
};

// Sets the Python error for `e` (RuntimeError, message of `e`, __cause__ the
// exception the policy raised on this thread, if any). Needs the GIL.
void RaisePolicyError(const PolicyCallbackError& e);

// Adds MirrorChild, MirrorRead and register_mirror_policy to the module.
void DefineMirrorPolicyBindings(pybind11::module_& m);

}  // namespace ziosim::python

#endif  // ZIOSIM_BINDINGS_SRC_PYTHON_POLICY_H_
