#include "bindings/src/python_policy.h"

#include <memory>
#include <span>
#include <string>
#include <utility>

#include "sim/zfs/vdev/mirror_policy/mirror_policy.h"
#include "sim/zfs/zio.h"

namespace py = pybind11;

namespace ziosim::python {
namespace {

// The exception a Python policy raised on this thread, kept (a strong
// reference) until the translator attaches it as __cause__. Touched only with
// the GIL held.
thread_local PyObject* pending_cause = nullptr;

void SetPendingCause(PyObject* value) {
  Py_XINCREF(value);
  PyObject* old = pending_cause;
  pending_cause = value;
  Py_XDECREF(old);
}

// A Python callable shared between the registry's factory and the policies it
// made; the last owner drops the reference under the GIL, from any thread.
using SharedFunction = std::shared_ptr<py::object>;

SharedFunction Share(py::object fn) {
  return SharedFunction(new py::object(std::move(fn)), [](py::object* o) {
    py::gil_scoped_acquire gil;
    delete o;
  });
}

class PythonMirrorPolicy final : public MirrorPolicy {
 public:
  PythonMirrorPolicy(std::string name, SharedFunction fn) : name_(std::move(name)), fn_(std::move(fn)) {}

  int Choose(std::span<const MirrorChildState> children, const MirrorRead& io) override {
    py::gil_scoped_acquire gil;
    long index = -1;
    try {
      py::list states(children.size());
      for (size_t i = 0; i < children.size(); ++i) states[i] = py::cast(children[i]);
      const py::object result = (*fn_)(std::move(states), io);
      if (PyBool_Check(result.ptr()) || !PyIndex_Check(result.ptr())) {
        throw PolicyCallbackError("mirror policy '" + name_ + "' returned " + Repr(result) +
                                  ", not a child index (an int)");
      }
      index = py::cast<long>(py::reinterpret_steal<py::object>(PyNumber_Index(result.ptr())));
    } catch (py::error_already_set& e) {
      SetPendingCause(e.value().ptr());
      const std::string type = py::str(e.type().attr("__name__"));
      const std::string text = py::str(e.value());
      throw PolicyCallbackError("mirror policy '" + name_ + "' raised " + type + (text.empty() ? "" : ": " + text));
    }
    const long n = static_cast<long>(children.size());
    if (index < 0 || index >= n) {
      throw PolicyCallbackError("mirror policy '" + name_ + "' returned child " + std::to_string(index) +
                                ", but the mirror has " + std::to_string(n) + " children (0.." +
                                std::to_string(n - 1) + ")");
    }
    if (!children[static_cast<size_t>(index)].readable) {
      throw PolicyCallbackError("mirror policy '" + name_ + "' returned child " + std::to_string(index) +
                                ", which is not readable (faulted)");
    }
    return static_cast<int>(index);
  }

 private:
  static std::string Repr(const py::handle& h) {
    std::string s = py::repr(h);
    if (s.size() > 60) s = s.substr(0, 57) + "...";
    return s;
  }

  std::string name_;
  SharedFunction fn_;
};

const char* PriorityName(ZioPriority p) {
  return ZioPriorityName(p);
}

}  // namespace

void RaisePolicyError(const PolicyCallbackError& e) {
  PyObject* cause = pending_cause;
  pending_cause = nullptr;
  py::object error = py::reinterpret_steal<py::object>(PyObject_CallFunction(PyExc_RuntimeError, "s", e.what()));
  if (!error) {  // could not even build the exception
    Py_XDECREF(cause);
    return;
  }
  if (cause != nullptr) PyException_SetCause(error.ptr(), cause);  // steals `cause`
  PyErr_SetObject(PyExc_RuntimeError, error.ptr());
}

void DefineMirrorPolicyBindings(py::module_& m) {
  py::class_<MirrorChildState>(m, "MirrorChild",
                               "What a mirror read policy may know about one child when a read arrives "
                               "(read-only; a copy made for this call).")
      .def_readonly("rotational", &MirrorChildState::rotational, "True for an HDD, False for an SSD")
      .def_readonly("readable", &MirrorChildState::readable,
                    "False when the child is faulted/offline: never return it")
      .def_readonly("in_device", &MirrorChildState::in_device,
                    "I/Os issued to the device and not completed (vq_active)")
      .def_readonly("queued", &MirrorChildState::queued, "I/Os waiting in the child's ZFS queue")
      .def_readonly("last_offset", &MirrorChildState::last_offset,
                    "end of the child's last I/O in bytes, in the space MirrorRead.offset uses "
                    "(see tunable mirror_last_offset); -1 if none yet")
      .def(py::pickle(
          [](const MirrorChildState& c) {
            return py::make_tuple(c.rotational, c.readable, c.in_device, c.queued, c.last_offset);
          },
          [](const py::tuple& t) {
            MirrorChildState c;
            c.rotational = t[0].cast<bool>();
            c.readable = t[1].cast<bool>();
            c.in_device = t[2].cast<int>();
            c.queued = t[3].cast<int>();
            c.last_offset = t[4].cast<int64_t>();
            return c;
          }))
      .def("__repr__", [](const MirrorChildState& c) {
        return std::string("MirrorChild(rotational=") + (c.rotational ? "True" : "False") +
               ", readable=" + (c.readable ? "True" : "False") + ", in_device=" + std::to_string(c.in_device) +
               ", queued=" + std::to_string(c.queued) + ", last_offset=" + std::to_string(c.last_offset) + ")";
      });

  py::class_<MirrorRead>(m, "MirrorRead", "The read a mirror policy places (read-only; a copy made for this call).")
      .def_readonly("offset", &MirrorRead::offset, "byte offset, in the space MirrorChild.last_offset uses")
      .def_readonly("size", &MirrorRead::size, "bytes")
      .def_readonly("mirror_offset", &MirrorRead::mirror_offset,
                    "the read's byte offset in mirror space (no label); the 2 MiB region hash uses it")
      .def_property_readonly("priority", [](const MirrorRead& r) { return PriorityName(r.priority); },
                             "'sync_read' (demand) or 'async_read' (prefetch), ...")
      .def_readonly("now_ns", &MirrorRead::now_ns, "simulated time, ns")
      .def(py::pickle(
          [](const MirrorRead& r) {
            return py::make_tuple(r.offset, r.size, r.mirror_offset, static_cast<int>(r.priority), r.now_ns);
          },
          [](const py::tuple& t) {
            MirrorRead r;
            r.offset = t[0].cast<int64_t>();
            r.size = t[1].cast<int64_t>();
            r.mirror_offset = t[2].cast<int64_t>();
            r.priority = static_cast<ZioPriority>(t[3].cast<int>());
            r.now_ns = t[4].cast<SimTime>();
            return r;
          }))
      .def("__repr__", [](const MirrorRead& r) {
        return "MirrorRead(offset=" + std::to_string(r.offset) + ", size=" + std::to_string(r.size) +
               ", mirror_offset=" + std::to_string(r.mirror_offset) + ", priority='" + PriorityName(r.priority) +
               "', now_ns=" + std::to_string(r.now_ns) + ")";
      });

  m.def(
      "register_mirror_policy",
      [](const std::string& name, py::function fn, const std::string& doc) {
        const SharedFunction shared = Share(std::move(fn));
        MirrorPolicyInfo info;
        info.name = name;
        info.doc = doc;
        info.tunables = "";
        info.factory = [name, shared](const Tunables&) -> std::unique_ptr<MirrorPolicy> {
          return std::make_unique<PythonMirrorPolicy>(name, shared);
        };
        RegisterMirrorPolicy(std::move(info));
      },
      py::arg("name"), py::arg("fn"), py::arg("doc"));
}

}  // namespace ziosim::python
