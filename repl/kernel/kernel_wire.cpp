// repl/kernel/kernel_wire.cpp: connection file, sockets, signing and framing of
// Jupyter messages (see kernel_wire.hpp).
#include "repl/kernel/kernel_wire.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <random>
#include <stdexcept>

namespace lumpi::repl::kernel {
namespace {

const std::string kDelimiter = "<IDS|MSG>";

std::string hex(const unsigned char* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) out += digits[p[i] >> 4], out += digits[p[i] & 15];
  return out;
}

// "2026-11-23T22:50:00.123456Z"
std::string iso_now() {
  using namespace std::chrono;
  auto now = system_clock::now();
  std::time_t t = system_clock::to_time_t(now);
  long us = long(duration_cast<microseconds>(now.time_since_epoch()).count() % 1000000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, us);
  return buf;
}

// JSON text that survives invalid UTF-8 in rank output (replaced, not thrown).
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Sends one frame, retrying when a signal interrupts the call.
void send_frame(zmq::socket_ref s, const std::string& data, bool more) {
  for (;;) {
    try {
      s.send(zmq::buffer(data), more ? zmq::send_flags::sndmore : zmq::send_flags::none);
      return;
    } catch (const zmq::error_t& e) {
      if (e.num() != EINTR) throw;
    }
  }
}

bool recv_frame(zmq::socket_ref s, zmq::message_t& m, bool wait) {
  for (;;) {
    try {
      return bool(s.recv(m, wait ? zmq::recv_flags::none : zmq::recv_flags::dontwait));
    } catch (const zmq::error_t& e) {
      if (e.num() != EINTR) throw;
    }
  }
}

void log(const std::string& line) { std::fprintf(stderr, "lumpi kernel: %s\n", line.c_str()); }

// The heartbeat thread: echoes every ping on `hb` at once, whatever the main
// thread does, until `stop`. SIGINT stays with the main thread (it counts
// interrupts).
void echo_heartbeats(zmq::socket_t hb, const std::atomic<bool>& stop) {
  sigset_t block;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, nullptr);
  zmq::pollitem_t item{hb.handle(), 0, ZMQ_POLLIN, 0};
  while (!stop) {
    if (zmq::poll(&item, 1, std::chrono::milliseconds(100)) <= 0) continue;
    std::vector<zmq::message_t> parts;
    zmq::message_t m;
    while (recv_frame(hb, m, !parts.empty())) {
      bool more = m.more();
      parts.push_back(std::move(m));
      if (!more) break;
    }
    for (size_t i = 0; i < parts.size(); ++i)
      hb.send(parts[i], i + 1 < parts.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
  }
  hb.set(zmq::sockopt::linger, 0);
  hb.close();
}

}  // namespace

Connection read_connection_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read connection file " + path);
  json j;
  try {
    j = json::parse(in);
  } catch (const std::exception& e) {
    throw std::runtime_error("connection file " + path + " is not JSON: " + e.what());
  }
  Connection c;
  auto text = [&](const char* field, std::string& out, bool required) {
    if (!j.contains(field)) {
      if (required) throw std::runtime_error("connection file " + path + " has no \"" + field + "\"");
      return;
    }
    if (!j[field].is_string()) throw std::runtime_error(std::string("connection file field \"") + field + "\" must be a string");
    out = j[field].get<std::string>();
  };
  auto port = [&](const char* field, int& out) {
    if (!j.contains(field) || !j[field].is_number_integer() || j[field].get<long>() < 0 || j[field].get<long>() > 65535)
      throw std::runtime_error("connection file " + path + ": \"" + field + "\" must be a port number");
    out = j[field].get<int>();
  };
  text("transport", c.transport, false);
  text("ip", c.ip, true);
  text("key", c.key, false);
  text("signature_scheme", c.signature_scheme, false);
  port("shell_port", c.shell_port);
  port("control_port", c.control_port);
  port("stdin_port", c.stdin_port);
  port("iopub_port", c.iopub_port);
  port("hb_port", c.hb_port);
  if (c.transport != "tcp" && c.transport != "ipc")
    throw std::runtime_error("connection file \"transport\" must be tcp or ipc, not " + c.transport);
  if (!c.key.empty() && c.signature_scheme != "hmac-sha256")
    throw std::runtime_error("connection file \"signature_scheme\" " + c.signature_scheme +
                             " is not supported (only hmac-sha256)");
  return c;
}

std::string endpoint(const Connection& c, int port) {
  if (c.transport == "ipc") return "ipc://" + c.ip + "-" + std::to_string(port);
  return "tcp://" + c.ip + ":" + std::to_string(port);
}

std::string sign(const std::string& key, const std::vector<std::string>& parts) {
  if (key.empty()) return "";
  std::string data;
  for (const auto& p : parts) data += p;
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!HMAC(EVP_sha256(), key.data(), int(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
            data.size(), md, &len))
    throw std::runtime_error("HMAC-SHA256 failed");
  return hex(md, len);
}

std::string new_uuid() {
  static std::random_device dev;
  static std::mt19937_64 gen(((uint64_t(dev()) << 32) ^ dev()) + uint64_t(std::time(nullptr)));
  unsigned char b[16];
  for (int i = 0; i < 16; i += 8) {
    uint64_t v = gen();
    for (int k = 0; k < 8; ++k) b[i + k] = uint8_t(v >> (8 * k));
  }
  b[6] = uint8_t((b[6] & 0x0f) | 0x40);
  b[8] = uint8_t((b[8] & 0x3f) | 0x80);
  std::string h = hex(b, 16);
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
}

Wire::Wire(const Connection& c) : key_(c.key) {
  zmq::socket_t hb(ctx, zmq::socket_type::rep);
  struct Bind {
    zmq::socket_t& s;
    int port;
    const char* name;
  } binds[] = {{shell, c.shell_port, "shell"},     {control, c.control_port, "control"},
               {stdin_, c.stdin_port, "stdin"},    {iopub, c.iopub_port, "iopub"},
               {hb, c.hb_port, "heartbeat"}};
  iopub.set(zmq::sockopt::xpub_verbose, 1);  // every subscription, not only the first per topic
  for (auto& b : binds) {
    b.s.set(zmq::sockopt::linger, 1000);
    try {
      b.s.bind(endpoint(c, b.port));
    } catch (const zmq::error_t& e) {
      throw std::runtime_error(std::string("cannot bind the ") + b.name + " socket to " + endpoint(c, b.port) +
                               ": " + e.what());
    }
  }
  heartbeat_ = std::thread(echo_heartbeats, std::move(hb), std::cref(stop_));
}

Wire::~Wire() {
  stop_ = true;
  if (heartbeat_.joinable()) heartbeat_.join();
}

std::optional<Message> decode(const std::vector<std::string>& frames, const std::string& key,
                              std::string* why) {
  size_t d = 0;
  while (d < frames.size() && frames[d] != kDelimiter) ++d;
  if (d == frames.size() || frames.size() - d < 6) {
    *why = "a message without the <IDS|MSG> delimiter and four JSON frames";
    return std::nullopt;
  }
  const std::string& signature = frames[d + 1];
  std::vector<std::string> signed_parts(frames.begin() + long(d) + 2, frames.begin() + long(d) + 6);
  std::string expected = sign(key, signed_parts);
  if (expected.size() != signature.size() || CRYPTO_memcmp(expected.data(), signature.data(), expected.size()) != 0) {
    *why = "a message with a bad signature";
    return std::nullopt;
  }
  Message msg;
  msg.identities.assign(frames.begin(), frames.begin() + long(d));
  try {
    msg.header = json::parse(frames[d + 2]);
    msg.parent_header = json::parse(frames[d + 3]);
    msg.metadata = json::parse(frames[d + 4]);
    msg.content = json::parse(frames[d + 5]);
  } catch (const std::exception& e) {
    *why = std::string("a message with bad JSON: ") + e.what();
    return std::nullopt;
  }
  if (!msg.header.is_object() || !msg.parent_header.is_object() || !msg.metadata.is_object() ||
      !msg.content.is_object()) {
    *why = "a message whose header, parent header, metadata or content is not an object";
    return std::nullopt;
  }
  msg.buffers.assign(frames.begin() + long(d) + 6, frames.end());
  return msg;
}

std::optional<Message> Wire::recv(zmq::socket_ref s) {
  std::vector<std::string> frames;
  zmq::message_t m;
  if (!recv_frame(s, m, false)) return std::nullopt;
  frames.push_back(m.to_string());
  while (m.more()) {
    recv_frame(s, m, true);
    frames.push_back(m.to_string());
  }
  std::string why;
  std::optional<Message> msg = decode(frames, key_, &why);
  if (!msg) log("dropped " + why);
  return msg;
}

void Wire::send_parts(zmq::socket_ref s, const std::vector<std::string>& identities, const Message& parent,
                      const std::string& type, const json& content) {
  json header = {{"msg_id", new_uuid()},
                 {"session", session},
                 {"username", parent.header.value("username", std::string("lumpi"))},
                 {"date", iso_now()},
                 {"msg_type", type},
                 {"version", "5.3"}};
  std::vector<std::string> parts = {dump(header), dump(parent.header), "{}", dump(content)};
  for (const auto& id : identities) send_frame(s, id, true);
  send_frame(s, kDelimiter, true);
  send_frame(s, sign(key_, parts), true);
  for (size_t i = 0; i < parts.size(); ++i) send_frame(s, parts[i], i + 1 < parts.size());
}

void Wire::send(zmq::socket_ref s, const Message& parent, const std::string& type, json content) {
  send_parts(s, parent.identities, parent, type, content);
}

void Wire::publish(const Message& parent, const std::string& type, json content) {
  send_parts(iopub, {"kernel." + session + "." + type}, parent, type, content);
}

void Wire::read_subscriptions() {
  zmq::message_t m;
  while (recv_frame(iopub, m, false))
    if (m.size() > 0 && static_cast<const char*>(m.data())[0] == 1) first_wait_done_ = true;
}

void Wire::await_first_subscriber(std::chrono::milliseconds limit) {
  auto until = std::chrono::steady_clock::now() + limit;
  read_subscriptions();
  while (!first_wait_done_ && std::chrono::steady_clock::now() < until) {
    zmq::pollitem_t item{iopub.handle(), 0, ZMQ_POLLIN, 0};
    try {
      zmq::poll(&item, 1, std::chrono::milliseconds(20));
    } catch (const zmq::error_t& e) {
      if (e.num() != EINTR) throw;
    }
    read_subscriptions();
  }
  first_wait_done_ = true;
}

}  // namespace lumpi::repl::kernel
