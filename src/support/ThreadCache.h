// A per-thread cache that can be reached while its thread, or the process,
// is being torn down: work done from a static destructor (simulee exec's
// runtime judges its last launches when the program exits) runs after the
// thread's thread_local objects are gone. Then get() returns nullptr and the
// caller does without the cache.
#pragma once

namespace simulee {

template <class T> class ThreadCache {
public:
  static T *get() {
    if (gone_)
      return nullptr;
    thread_local Holder holder;
    return &holder.value;
  }

private:
  struct Holder {
    T value;
    ~Holder() { gone_ = true; }
  };
  // Trivially destructible: readable after every thread_local object died.
  static inline thread_local bool gone_ = false;
};

} // namespace simulee
