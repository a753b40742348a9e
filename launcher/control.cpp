// launcher/control.cpp: framing of control messages.
#include "launcher/control.hpp"

namespace lumpi::launcher {

void send_frames(zmq::socket_ref s, const Frames& frames) {
  for (size_t i = 0; i < frames.size(); ++i)
    s.send(zmq::buffer(frames[i]),
           i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
}

Frames recv_frames(zmq::socket_ref s, bool wait) {
  Frames out;
  zmq::message_t m;
  if (!s.recv(m, wait ? zmq::recv_flags::none : zmq::recv_flags::dontwait)) return out;
  out.emplace_back(m.to_string());
  while (m.more()) {
    (void)s.recv(m, zmq::recv_flags::none);
    out.emplace_back(m.to_string());
  }
  return out;
}

}  // namespace lumpi::launcher
