// Sets an object's listener for the lifetime of a scope and clears it however
// the scope ends, so that the object never points at a listener that is gone
// (a replay's driver, once the replay returns or throws).
#ifndef ZIOSIM_SIM_CORE_SCOPED_LISTENER_H_
#define ZIOSIM_SIM_CORE_SCOPED_LISTENER_H_

namespace ziosim {

// `Owner` has set_listener(Listener*), which takes nullptr to clear it.
template <typename Owner, typename Listener>
class ScopedListener {
 public:
  ScopedListener(Owner& owner, Listener* listener) : owner_(owner) { owner_.set_listener(listener); }
  ~ScopedListener() { owner_.set_listener(nullptr); }
  ScopedListener(const ScopedListener&) = delete;
  ScopedListener& operator=(const ScopedListener&) = delete;

 private:
  Owner& owner_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_SCOPED_LISTENER_H_
