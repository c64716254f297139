// Runs a long C++ call (a launch, a search) with the GIL released while
// Python stays responsive to Ctrl-C: the work runs on its own thread, the
// calling thread wakes every 50 ms, re-acquires the GIL, checks for signals
// and lets the caller update a progress bar (an exception it raises stops
// the work like Ctrl-C does). On KeyboardInterrupt (or any
// signal handler that raises) it sets the cancel flag the work polls, waits
// for it to stop, and re-raises.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace simulee::python {

template <class Work>
auto runInterruptibly(Work work, std::atomic<bool> &cancel,
                      const std::function<void()> &onTick = {}) -> decltype(work()) {
  namespace py = pybind11;
  using Value = decltype(work());
  std::optional<Value> value;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  std::exception_ptr failure; // a C++ exception of the work, rethrown here
  std::thread worker([&] {
    std::optional<Value> result;
    try {
      result.emplace(work());
    } catch (...) {
      failure = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex);
    value = std::move(result);
    done = true;
    finished.notify_one();
  });
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    std::unique_lock<std::mutex> lock(mutex);
    while (!done) {
      if (finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; }))
        break;
      lock.unlock();
      {
        py::gil_scoped_acquire acquire;
        if (!interrupted && PyErr_CheckSignals() != 0) {
          interrupted = true; // the Python error stays set until we re-raise it
          cancel = true;
        } else if (!interrupted && onTick) {
          try {
            onTick();
          } catch (py::error_already_set &error) {
            error.restore(); // re-raised below, once the work has stopped
            interrupted = true;
            cancel = true;
          }
        }
      }
      lock.lock();
    }
  }
  worker.join();
  if (interrupted)
    throw py::error_already_set();
  if (failure)
    std::rethrow_exception(failure);
  return std::move(*value);
}

} // namespace simulee::python
