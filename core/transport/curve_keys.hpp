// core/transport/curve_keys.hpp: the job's CURVE key pair as the data plane takes it
// (plain strings, no ZeroMQ: the engine's header passes it on to the
// transport without seeing a socket). Made and stored by launcher/protocol/curve.hpp.
#pragma once

#include <string>

namespace lumpi::core {

// Z85 text, 40 characters each.
struct CurveKeys {
  std::string public_key, secret_key;
};

}  // namespace lumpi::core
