// launcher/protocol/curve.cpp: job keys, the job file and the ZAP handler (see curve.hpp).
#include "launcher/protocol/curve.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <ifaddrs.h>
#include <map>
#include <netdb.h>
#include <netinet/in.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launcher/protocol/signals.hpp"

namespace lumpi::launcher {
namespace {

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what); }

std::string errno_text() { return std::strerror(errno); }

// The 32 bytes a Z85 key stands for; "" if it is no key.
std::string z85_binary(const std::string& z85) {
  if (z85.size() != 40) return "";
  uint8_t bin[32];
  if (!zmq_z85_decode(bin, z85.c_str())) return "";
  return std::string(reinterpret_cast<char*>(bin), 32);
}

}  // namespace

// ---- keys ------------------------------------------------------------------------------

bool curve_available() { return zmq_has("curve") == 1; }

CurveKeys make_keys() {
  if (!curve_available()) fail("this libzmq has no CURVE security: worlds over tcp are not possible");
  char pub[41], sec[41];
  if (zmq_curve_keypair(pub, sec) != 0) fail("zmq_curve_keypair: " + std::string(zmq_strerror(zmq_errno())));
  return {pub, sec};
}

void curve_server(zmq::socket_t& s, const CurveKeys& k) {
  int one = 1;
  s.set(zmq::sockopt::curve_server, 1);
  s.set(zmq::sockopt::curve_secretkey, k.secret_key);
  s.set(zmq::sockopt::zap_domain, "lumpi");
  // ZMQ_ZAP_ENFORCE_DOMAIN (93): a draft name in cppzmq; Debian's libzmq 4.3 implements it.
  if (zmq_setsockopt(s.handle(), 93, &one, sizeof one) != 0) throw zmq::error_t();
}

void curve_client(zmq::socket_t& s, const CurveKeys& k) {
  s.set(zmq::sockopt::curve_serverkey, k.public_key);
  s.set(zmq::sockopt::curve_publickey, k.public_key);
  s.set(zmq::sockopt::curve_secretkey, k.secret_key);
}

// ---- the job file ----------------------------------------------------------------------

void write_join_file(const std::string& path, const JoinInfo& j) {
  std::string text = "control=" + j.control + "\nbeat=" + j.beat + "\nsize=" + std::to_string(j.size) +
                     "\nbind=" + j.bind + "\npublic=" + j.keys.public_key + "\nsecret=" + j.keys.secret_key + "\n" +
                     (j.data_curve ? "" : "data_curve=off\n") +
                     (j.attach.empty() ? "" : "attach=" + j.attach + "\n");
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) fail("cannot create the job file " + path + ": " + errno_text());
  bool ok = fchmod(fd, 0600) == 0 && write(fd, text.data(), text.size()) == ssize_t(text.size());
  ok = close(fd) == 0 && ok;
  if (!ok) fail("cannot write the job file " + path + ": " + errno_text());
}

JoinInfo read_join_file(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) fail("cannot open the job file " + path + " (LUMPI_JOIN): " + errno_text());
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077)) {
    close(fd);
    fail("the job file " + path + " must be a regular file of this user with mode 0600");
  }
  std::string text;
  char buf[1024];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0 && text.size() < 65536) text.append(buf, size_t(n));
  close(fd);
  std::map<std::string, std::string> kv;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    size_t eq = line.find('=');
    if (eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 1);
  }
  JoinInfo j;
  j.control = kv["control"];
  j.beat = kv["beat"];
  j.bind = kv.count("bind") ? kv["bind"] : "none";
  j.keys = {kv["public"], kv["secret"]};
  j.size = std::atoi(kv["size"].c_str());
  j.data_curve = kv["data_curve"] != "off";
  j.attach = kv["attach"];
  if (j.control.empty() || j.beat.empty() || j.size < 1 || z85_binary(j.keys.public_key).empty() ||
      z85_binary(j.keys.secret_key).empty())
    fail("the job file " + path + " is incomplete or damaged");
  return j;
}

// ---- the ZAP handler -------------------------------------------------------------------

ZapHandler::ZapHandler(zmq::context_t& ctx, std::string allowed_public_key, std::string who)
    : sock_(ctx, zmq::socket_type::rep), allowed_(z85_binary(allowed_public_key)), who_(std::move(who)) {
  if (allowed_.empty()) fail("ZAP: the job's public key is malformed");
  sock_.set(zmq::sockopt::linger, 0);
  again_on_eintr([&] { sock_.bind("inproc://zeromq.zap.01"); });
  thread_ = quiet_thread([this] { run(); });
}

ZapHandler::~ZapHandler() { stop(); }

void ZapHandler::stop() {
  if (!thread_.joinable()) return;
  stop_ = true;
  thread_.join();
  sock_.close();
}

// ZAP 1.0 (RFC 27): request = version, request id, domain, address,
// identity, mechanism, credentials...; reply = version, request id,
// status code, status text, user id, metadata.
void ZapHandler::run() {
  while (!stop_) {
    zmq::pollitem_t item{sock_.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq::poll(&item, 1, std::chrono::milliseconds(100)) == 0) continue;
    std::vector<std::string> f;
    do {
      zmq::message_t m;
      if (!sock_.recv(m, zmq::recv_flags::none)) break;
      f.emplace_back(static_cast<const char*>(m.data()), m.size());
    } while (sock_.get(zmq::sockopt::rcvmore));
    bool ok = f.size() >= 7 && f[0] == "1.0" && f[5] == "CURVE" && f[6] == allowed_;
    if (!ok) {
      ++refused_;
      std::fprintf(stderr, "%s: refused a connection from %s: %s\n", who_.c_str(),
                   f.size() > 3 && !f[3].empty() ? f[3].c_str() : "an unknown address",
                   f.size() > 5 && f[5] != "CURVE" ? "no CURVE security" : "not the job's key");
      std::fflush(stderr);
    }
    std::vector<std::string> reply = {"1.0", f.size() > 1 ? f[1] : "", ok ? "200" : "400",
                                      ok ? "OK" : "not the job's key", ok ? "lumpi" : "", ""};
    for (size_t i = 0; i < reply.size(); ++i)
      sock_.send(zmq::buffer(reply[i]), i + 1 < reply.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
  }
}

// ---- addresses -------------------------------------------------------------------------

std::string address_towards(const std::string& host) {
  addrinfo hints{}, *res = nullptr;
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  if (getaddrinfo(host.c_str(), "9", &hints, &res) != 0 || !res) fail("cannot resolve " + host);
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  bool ok = fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) == 0;  // UDP: picks the route, sends nothing
  freeaddrinfo(res);
  sockaddr_in me{};
  socklen_t len = sizeof me;
  ok = ok && getsockname(fd, reinterpret_cast<sockaddr*>(&me), &len) == 0;
  if (fd >= 0) close(fd);
  if (!ok) fail("no route to " + host + ": " + errno_text());
  char text[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &me.sin_addr, text, sizeof text);
  return text;
}

std::string interface_address(const std::string& iface) {
  in_addr a{};
  if (inet_pton(AF_INET, iface.c_str(), &a) == 1) return iface;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) fail("getifaddrs: " + errno_text());
  std::string found;
  for (ifaddrs* i = list; i && found.empty(); i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || iface != i->ifa_name) continue;
    char text[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr, text, sizeof text);
    found = text;
  }
  freeifaddrs(list);
  if (found.empty()) fail("--iface " + iface + ": no such interface with an IPv4 address");
  return found;
}

std::string host_of_endpoint(const std::string& endpoint) {
  std::string s = endpoint.rfind("tcp://", 0) == 0 ? endpoint.substr(6) : endpoint;
  size_t colon = s.rfind(':');
  return colon == std::string::npos ? s : s.substr(0, colon);
}

}  // namespace lumpi::launcher
