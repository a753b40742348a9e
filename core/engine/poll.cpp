// core/engine/poll.cpp: the polling watch (poll.hpp states the rule).
#include "core/engine/poll.hpp"

#include <algorithm>

#include "core/base/crash_report.hpp"

namespace lumpi::core {

namespace {

bool same_wait(const Waiting& a, const Waiting& b) {
  return a.context == b.context && a.peer_role == b.peer_role && a.peer == b.peer && a.has_tag == b.has_tag &&
         a.tag == b.tag && a.needs == b.needs && a.group == b.group;
}

}  // namespace

bool PollStreak::failed(const Waiting& what) {
  if (!t_current_call || what.needs.empty()) {
    end();
    return false;
  }
  if (t_call_serial == call_) {  // another request of the same call: any one of them will do
    for (int r : what.needs)
      if (std::find(what_.needs.begin(), what_.needs.end(), r) == what_.needs.end()) what_.needs.push_back(r);
    return false;
  }
  const bool again = call_ != 0 && t_call_serial == call_ + 1 && name_ == t_current_call && same_wait(first_, what);
  const Clock::time_point now = Clock::now();
  call_ = t_call_serial;
  if (!again) {
    told_ = false;
    name_ = t_current_call;
    first_ = what_ = what;
    what_.call = t_current_call;
    what_.any = true;
    what_.polling = true;
    what_.group.clear();  // a collective's request waits for its members as needs say
    since_ = last_ = now;
    intervals_ = gaps_ = 0;
    return false;
  }
  ++intervals_;
  gaps_ += now - last_ > std::chrono::microseconds(kPollGapUs);
  last_ = now;
  if (told_ || now - since_ < std::chrono::milliseconds(kPollNoticeMs) || gaps_ * 10 > intervals_) return false;
  told_ = true;
  return true;
}

bool PollStreak::end() {
  if (call_ == 0) return false;
  const bool was = told_;
  *this = PollStreak();
  return was;
}

const Waiting* PollStreak::current() const {
  const bool continues = t_current_call == name_ && (t_call_serial == call_ || t_call_serial == call_ + 1);
  return told_ && continues ? &what_ : nullptr;
}

}  // namespace lumpi::core
