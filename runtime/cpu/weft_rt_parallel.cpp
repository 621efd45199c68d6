//===- weft_rt_parallel.cpp - Threaded loops for the CPU kernels ----------===//
#include "weft_rt_parallel.h"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace weft::rt {

namespace {
/// Persistent workers sleeping on a condition variable between jobs.
class Pool {
public:
  static Pool &get() {
    static Pool pool;
    return pool;
  }

  int threads() const { return threadCount.load(); }
  void setThreads(int n) { threadCount.store(n < 1 ? 1 : n); }

  void run(int64_t count, detail::RangeFn fn, void *context) {
    std::unique_lock<std::mutex> busy(submitMutex, std::try_to_lock);
    if (insideWorker || !busy.owns_lock()) { // nested or concurrent: serial
      fn(context, 0, count);
      return;
    }
    int chunks = threads();
    if (int64_t(chunks) > count)
      chunks = int(count);
    ensureWorkers(chunks - 1);
    {
      std::lock_guard<std::mutex> lock(mutex);
      job = {fn, context, count, chunks};
      pending = chunks - 1;
      ++generation;
    }
    wake.notify_all();
    runChunk(0);
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return pending == 0; });
  }

  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    wake.notify_all();
    for (std::thread &t : workers)
      t.join();
  }

private:
  struct Job {
    detail::RangeFn fn = nullptr;
    void *context = nullptr;
    int64_t count = 0;
    int chunks = 0;
  };

  Pool() {
    const char *env = std::getenv("WEFT_NUM_THREADS");
    int n = env ? std::atoi(env) : int(std::thread::hardware_concurrency());
    setThreads(n);
  }

  void runChunk(int index) {
    int64_t per = (job.count + job.chunks - 1) / job.chunks;
    int64_t begin = index * per;
    int64_t end = begin + per < job.count ? begin + per : job.count;
    if (begin < end)
      job.fn(job.context, begin, end);
  }

  void ensureWorkers(int needed) {
    while (int(workers.size()) < needed) {
      int index = int(workers.size()) + 1; // chunk 0 is the caller's
      workers.emplace_back([this, index] { workerLoop(index); });
    }
  }

  void workerLoop(int index) {
    insideWorker = true;
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [&] { return stopping || generation != seen; });
      if (stopping)
        return;
      seen = generation;
      if (index >= job.chunks)
        continue; // this job has fewer chunks than there are workers
      lock.unlock();
      runChunk(index);
      lock.lock();
      if (--pending == 0)
        done.notify_one();
    }
  }

  static thread_local bool insideWorker;
  std::atomic<int> threadCount{1};
  std::mutex submitMutex, mutex;
  std::condition_variable wake, done;
  std::vector<std::thread> workers;
  Job job;
  int pending = 0;
  uint64_t generation = 0;
  bool stopping = false;
};

thread_local bool Pool::insideWorker = false;
} // namespace

int maxThreads() { return Pool::get().threads(); }
void setMaxThreads(int threads) { Pool::get().setThreads(threads); }

void detail::runParallel(int64_t count, RangeFn fn, void *context) {
  Pool::get().run(count, fn, context);
}

} // namespace weft::rt
