// Resolves #include <helper_timer.h> (the CUDA samples' host timer) in code
// built without the samples' Common directory (which, when given with -I,
// comes first): a stopwatch measuring host wall time in milliseconds, with
// the samples' sdk*Timer functions, in simulee's words. Under `simulee
// exec` it times the simulation. The samples' include guard, so that the
// two never both define the stopwatch.
#ifndef COMMON_HELPER_TIMER_H_
#define COMMON_HELPER_TIMER_H_

#include <chrono>

// Time between start() and stop() calls, accumulated until reset().
class StopWatchInterface {
public:
  virtual ~StopWatchInterface() {}
  virtual void start() = 0;
  virtual void stop() = 0;
  virtual void reset() = 0;
  // Milliseconds of the stopped sessions, plus the running one's so far.
  virtual float getTime() = 0;
  // Milliseconds per stopped session (0 before the first).
  virtual float getAverageTime() = 0;
};

class StopWatchLinux : public StopWatchInterface {
public:
  void start() override {
    started_ = Clock::now();
    running_ = true;
  }
  void stop() override {
    if (!running_)
      return;
    totalMs_ += since(started_);
    running_ = false;
    ++sessions_;
  }
  void reset() override {
    totalMs_ = 0;
    sessions_ = 0;
    if (running_)
      started_ = Clock::now();
  }
  float getTime() override { return float(totalMs_ + (running_ ? since(started_) : 0.0)); }
  float getAverageTime() override { return sessions_ ? float(totalMs_ / sessions_) : 0.0f; }

private:
  using Clock = std::chrono::steady_clock;
  static double since(Clock::time_point from) {
    return std::chrono::duration<double, std::milli>(Clock::now() - from).count();
  }
  Clock::time_point started_{};
  double totalMs_ = 0;
  int sessions_ = 0;
  bool running_ = false;
};

inline bool sdkCreateTimer(StopWatchInterface **timer) {
  *timer = new StopWatchLinux();
  return *timer != nullptr;
}
inline bool sdkDeleteTimer(StopWatchInterface **timer) {
  delete *timer;
  *timer = nullptr;
  return true;
}
inline bool sdkStartTimer(StopWatchInterface **timer) {
  if (*timer)
    (*timer)->start();
  return true;
}
inline bool sdkStopTimer(StopWatchInterface **timer) {
  if (*timer)
    (*timer)->stop();
  return true;
}
inline bool sdkResetTimer(StopWatchInterface **timer) {
  if (*timer)
    (*timer)->reset();
  return true;
}
inline float sdkGetTimerValue(StopWatchInterface **timer) {
  return *timer ? (*timer)->getTime() : 0.0f;
}
inline float sdkGetAverageTimerValue(StopWatchInterface **timer) {
  return *timer ? (*timer)->getAverageTime() : 0.0f;
}

#endif
