// core/engine/match.cpp: the two queues of envelope matching.
#include "core/engine/match.hpp"

#include <algorithm>

#include "core/base/constants.hpp"

namespace lumpi::core {

bool matches(uint64_t context, int source, int tag, const Envelope& e) {
  return e.context == context && (source == ANY_SOURCE || source == e.source) &&
         (tag == ANY_TAG || tag == e.tag);
}

PostedRecv* Matcher::arrive(Message m) {
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    PostedRecv* r = *it;
    if (matches(r->context, r->source, r->tag, m.env)) {
      r->msg = std::move(m);
      r->done = true;
      posted_.erase(it);
      return r;
    }
  }
  unexpected_.push_back(std::move(m));
  return nullptr;
}

bool Matcher::post(PostedRecv* r) {
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    if (matches(r->context, r->source, r->tag, it->env)) {
      r->msg = std::move(*it);
      r->done = true;
      unexpected_.erase(it);
      return true;
    }
  }
  posted_.push_back(r);
  return false;
}

bool Matcher::cancel(PostedRecv* r) {
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if (*it == r) {
      posted_.erase(it);
      return true;
    }
  }
  return false;
}

const Message* Matcher::probe(uint64_t context, int source, int tag) const {
  for (const Message& m : unexpected_)
    if (matches(context, source, tag, m.env)) return &m;
  return nullptr;
}

std::optional<Message> Matcher::take(uint64_t context, int source, int tag) {
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it)
    if (matches(context, source, tag, it->env)) {
      Message m = std::move(*it);
      unexpected_.erase(it);
      return m;
    }
  return std::nullopt;
}

bool Matcher::withdraw(int source, uint64_t seq) {
  auto sent = [&](const Message& m) { return m.env.source == source && m.env.seq == seq; };
  auto it = std::find_if(unexpected_.begin(), unexpected_.end(), sent);
  if (seq == 0 || it == unexpected_.end()) return false;
  unexpected_.erase(it);
  return true;
}

std::vector<QueueItem> Matcher::snapshot() const {
  std::vector<QueueItem> out;
  for (const PostedRecv* r : posted_) out.push_back({true, r->source, r->tag, r->context, -1});
  for (const Message& m : unexpected_)
    out.push_back({false, m.env.source, m.env.tag, m.env.context, (long long)m.body.size()});
  return out;
}

void Matcher::drop_epoch(uint32_t epoch) {
  unexpected_.remove_if([epoch](const Message& m) { return m.env.epoch == epoch; });
}

void Matcher::abandon_posted(uint32_t epoch) {
  posted_.remove_if([epoch](PostedRecv* r) {
    if (r->epoch != epoch) return false;
    r->abandoned = true;
    return true;
  });
}

}  // namespace lumpi::core
