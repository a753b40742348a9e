// core/transport/body.hpp: the one type of a message body: owned bytes.
//
// A Body owns its bytes and moves without copying, whoever allocated them:
// a std::string built by a codec (kept as is), or bytes adopted with the
// function that frees them (a buffer the transport received, a datatype
// packed straight into its message: core/api/api_p2p.cpp). So a 4 MiB message
// is never copied between the encoder and the socket, nor between the socket
// and the decoder. The transport (core/transport/transport.cpp) is the only code that
// takes a body apart; everything else sees view().
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace lumpi::core {

class Body {
 public:
  using Release = void (*)(void* owner);

  Body() = default;
  explicit Body(std::string s) : str_(std::move(s)) {}
  // Adopts `size` bytes at `data`, owned by `owner`; release(owner) runs
  // once the body is done with them (destroyed, or its storage handed on).
  static Body adopt(const char* data, size_t size, void* owner, Release release) {
    Body b;
    b.data_ = data, b.size_ = size, b.owner_ = owner, b.release_ = release;
    return b;
  }
  Body(Body&& o) noexcept { *this = std::move(o); }
  Body& operator=(Body&& o) noexcept {
    if (this != &o) {
      reset();
      str_ = std::move(o.str_);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      owner_ = std::exchange(o.owner_, nullptr);
      release_ = std::exchange(o.release_, nullptr);
    }
    return *this;
  }
  Body(const Body&) = delete;
  Body& operator=(const Body&) = delete;
  ~Body() { reset(); }

  const char* data() const { return owner_ ? data_ : str_.data(); }
  size_t size() const { return owner_ ? size_ : str_.size(); }
  bool empty() const { return size() == 0; }
  std::string_view view() const { return {data(), size()}; }
  std::string str() const { return std::string(view()); }

 private:
  void reset() {
    if (owner_ && release_) release_(owner_);
    owner_ = nullptr, release_ = nullptr, data_ = nullptr, size_ = 0;
  }

  std::string str_;
  const char* data_ = nullptr;
  size_t size_ = 0;
  void* owner_ = nullptr;
  Release release_ = nullptr;
};

}  // namespace lumpi::core
