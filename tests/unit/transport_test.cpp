// tests/unit/transport_test.cpp: Transport::poll hears its watched socket
// (the rank host's control channel) in every case a blocked MPI wait
// depends on: input arriving while it sleeps, input whose wake-up another
// look at the socket took (the owner's send; watched_used), and input
// beside a flood of data. The watched socket is a DEALER on the transport's
// context, fed over inproc by a ROUTER, as the coordinator feeds a rank.
#include <doctest/doctest.h>

#include <poll.h>
#include <unistd.h>

#include <filesystem>

#include "core/transport/transport.hpp"

using namespace lumpi::core;

namespace {

struct Watched {
  std::string dir = "/tmp/lumpi-unit-transport-" + std::to_string(getpid());
  std::unique_ptr<Transport> t;
  std::unique_ptr<zmq::socket_t> router, dealer;
  int heard = 0;  // control messages the watch callback received

  Watched() {
    std::filesystem::create_directory(dir);
    t = std::make_unique<Transport>("ipc://" + dir + "/0");
    t->set_peer_endpoints({t->endpoint()});
    router = std::make_unique<zmq::socket_t>(t->context(), zmq::socket_type::router);
    router->bind("inproc://control");
    dealer = std::make_unique<zmq::socket_t>(t->context(), zmq::socket_type::dealer);
    dealer->set(zmq::sockopt::routing_id, "rank-0");
    dealer->connect("inproc://control");
    t->watch(*dealer, [this] {  // as the rank host: receive until nothing is left
      zmq::message_t m;
      while (dealer->recv(m, zmq::recv_flags::dontwait)) ++heard;
    });
    // The router learns the dealer's identity from a first message.
    dealer->send(zmq::str_buffer("hello"), zmq::send_flags::none);
    t->watched_used();
    zmq::message_t id, body;
    REQUIRE(router->recv(id));
    REQUIRE(router->recv(body));
  }
  ~Watched() {
    dealer->close();
    router->close();
    t.reset();
    std::filesystem::remove_all(dir);
  }

  void control(const char* text) {
    router->send(zmq::str_buffer("rank-0"), zmq::send_flags::sndmore);
    router->send(zmq::buffer(std::string(text)), zmq::send_flags::none);
  }
  // Waits (at most 10 s) until the dealer's descriptor says it has something to process.
  bool dealer_signalled() {
    pollfd p{int(dealer->get(zmq::sockopt::fd)), POLLIN, 0};
    return ::poll(&p, 1, 10000) == 1;
  }
};

}  // namespace

TEST_CASE("a sleeping poll wakes for the watched socket, again after draining it") {
  Watched w;
  int data = 0;
  w.t->poll(0, [&] { ++data; });  // a first look finds nothing
  CHECK(w.heard == 0);
  for (int round = 1; round <= 3; ++round) {
    w.control("status?");
    for (int i = 0; i < 3 && w.heard < round; ++i) w.t->poll(5000, [&] { ++data; });
    CHECK(w.heard == round);
  }
  CHECK(data == 0);
}

TEST_CASE("input whose wake-up an owner's send took is heard after watched_used") {
  Watched w;
  w.t->poll(0, [] {});  // the transport's last look found the socket empty
  REQUIRE(w.heard == 0);
  w.control("interrupt");
  REQUIRE(w.dealer_signalled());
  // The owner's own use of the socket (a send processes its commands, as
  // this does) takes the descriptor's signal; the message stays queued.
  REQUIRE((w.dealer->get(zmq::sockopt::events) & ZMQ_POLLIN) != 0);
  pollfd p{int(w.dealer->get(zmq::sockopt::fd)), POLLIN, 0};
  REQUIRE(::poll(&p, 1, 0) == 0);
  w.t->watched_used();
  w.t->poll(10000, [] {});  // must not sleep past the queued message
  CHECK(w.heard == 1);
}

TEST_CASE("a flood of data does not hide the watched socket") {
  Watched w;
  // Data that the callback leaves unread: the data socket stays ready in every round.
  w.t->send(0, "header", Body(std::string("body")));
  int rounds = 0;
  while (rounds < 1000 && !w.t->data_ready()) {
    ++rounds;
    w.t->poll(10, [] {});
  }
  REQUIRE(w.t->data_ready());
  w.t->poll(0, [] {});  // every look so far found the watched socket empty
  REQUIRE(w.heard == 0);
  w.control("interrupt");
  REQUIRE(w.dealer_signalled());
  int data = 0;
  w.t->poll(10000, [&] { ++data; });
  CHECK(data == 1);
  CHECK(w.heard == 1);
}
