// The objects of a library a program creates and destroys through opaque
// pointers (cuBLAS handles, cuRAND generators): whether a pointer it passes
// is one still live, so that a destroyed or made-up one is an error status
// and a finding, never a read of freed memory.
#pragma once

#include <mutex>
#include <set>

namespace simulee::runtime {

template <class T> class LiveObjects {
public:
  // Records `object` (just made) as live; it is returned.
  T *add(T *object) {
    std::lock_guard<std::mutex> lock(mutex_);
    objects_.insert(object);
    return object;
  }
  // Whether `object` was live; it is not any more.
  bool remove(const T *object) {
    std::lock_guard<std::mutex> lock(mutex_);
    return objects_.erase(object) != 0;
  }
  bool contains(const T *object) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return object && objects_.count(object) != 0;
  }

private:
  mutable std::mutex mutex_;
  std::set<const T *> objects_;
};

} // namespace simulee::runtime
