// core/coll/nbc_task.hpp: the coroutine machinery nonblocking collectives are
// written in (core/coll/nbc.cpp only; not part of the public API).
//
// An algorithm is a C++20 coroutine returning Task<T>. It sends at once
// (sends are eager and never block) and `co_await`s its receives; a Task
// may `co_await` another Task (a tree phase). A Schedule owns the outermost
// Task and runs it: from the start until its first receive that has not
// arrived, then, each time the engine steps it in the background
// (Engine::add_background), on from there. No thread, no blocking: the
// whole collective advances inside whatever MPI call the process is in.
#pragma once

#include <coroutine>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "core/engine/request.hpp"

namespace lumpi::core::nbc::detail {

// Where the running coroutine chain stands: the innermost coroutine and the
// receive it waits for.
struct Cursor {
  std::coroutine_handle<> resume_at;
  RequestPtr waiting_on;
};

template <class T>
class Task {
 public:
  struct promise_type {
    std::optional<T> value;
    std::exception_ptr error;
    std::coroutine_handle<> continuation;
    Cursor* cursor = nullptr;

    Task get_return_object() { return Task(handle::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto c = h.promise().continuation;
        return c ? c : std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(T v) { value = std::move(v); }
    void unhandled_exception() { error = std::current_exception(); }
  };
  using handle = std::coroutine_handle<promise_type>;

  Task(Task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() {
    if (h_) h_.destroy();
  }

  // co_await of a sub-task: it runs in its caller's cursor, then resumes it.
  bool await_ready() const noexcept { return false; }
  template <class P>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<P> caller) {
    h_.promise().continuation = caller;
    h_.promise().cursor = caller.promise().cursor;
    return h_;
  }
  T await_resume() { return take(); }

  // For the Schedule: the outermost task.
  handle raw() const { return h_; }
  T take() {
    if (h_.promise().error) std::rethrow_exception(h_.promise().error);
    return std::move(*h_.promise().value);
  }

 private:
  explicit Task(handle h) : h_(h) {}
  handle h_;
};

// co_await Arrival{request}: the received body once it has arrived. A
// receive abandoned by an interrupt raises there, in the coroutine.
struct Arrival {
  RequestPtr req;
  bool await_ready() { return req->complete(); }
  template <class P>
  void await_suspend(std::coroutine_handle<P> h) {
    h.promise().cursor->resume_at = h;
    h.promise().cursor->waiting_on = req;
  }
  std::string await_resume() {
    req->complete();
    return std::string(req->body().view());
  }
};

// One running collective: its outermost task and cursor. step() runs it as
// far as the arrived messages allow; true once it has finished (its result
// or error is then in the task).
template <class T>
class Schedule {
 public:
  explicit Schedule(Task<T> t) : task_(std::move(t)) {
    task_.raw().promise().cursor = &cursor_;
    cursor_.resume_at = task_.raw();
  }
  bool step() {
    while (!task_.raw().done()) {
      if (cursor_.waiting_on) {
        bool arrived = true;
        try {
          arrived = cursor_.waiting_on->complete();
        } catch (...) {  // abandoned: resume, and the coroutine raises it
        }
        if (!arrived) return false;
      }
      cursor_.waiting_on.reset();
      auto h = std::exchange(cursor_.resume_at, {});
      h.resume();
    }
    return true;
  }
  bool finished() const { return task_.raw().done(); }
  T take() { return task_.take(); }

 private:
  Cursor cursor_;
  Task<T> task_;
};

}  // namespace lumpi::core::nbc::detail
