//===- Frame.h - gRPC messages of a header and raw bytes --------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A frame is one gRPC message: a 4-byte little-endian header length, a
// protobuf header (Wire.proto) and a payload of raw bytes. Sending refers to
// the payload where it lies (a tensor's buffer, kept alive by its owner until
// gRPC has written it); receiving copies it once, to where it belongs.
//
// A tensor goes as chunks of at most kChunkBytes, each a frame, so no message
// ever nears gRPC's size limits, whatever the tensor's size.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_GRPC_FRAME_H
#define OPENKS_LIB_RUNTIME_GRPC_FRAME_H

#include "Wire.pb.h"

#include "openks/Runtime/Tensor.h"

#include <grpcpp/support/byte_buffer.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace openks::runtime::grpc_wire {

/// The largest payload of one frame.
constexpr size_t kChunkBytes = size_t(4) << 20;
/// The largest message either side receives: a chunk and its header.
constexpr int kMaxMessageBytes = 2 * static_cast<int>(kChunkBytes);

/// Returns a frame of `header` and no payload.
grpc::ByteBuffer encodeFrame(const google::protobuf::MessageLite &header);

/// Returns a frame of `header` and the `size` bytes at `payload`, which it
/// does not copy: `owner` keeps them alive until gRPC has sent them.
grpc::ByteBuffer encodeFrame(const google::protobuf::MessageLite &header,
                             const void *payload, size_t size,
                             std::shared_ptr<const void> owner);

/// A received frame: its header, then its payload.
class FrameReader {
public:
  /// Parses the header of `message` into `header`; fails with DataLoss
  /// when the frame is damaged.
  Status open(const grpc::ByteBuffer &message,
              google::protobuf::MessageLite &header);

  /// Returns the size of the payload.
  size_t payloadSize() const { return payloadSize_; }
  /// Copies the payload to `destination`, which holds payloadSize() bytes.
  void copyPayload(void *destination) const;

private:
  /// Copies `size` bytes from the current position to `destination` and
  /// moves past them.
  void consume(size_t size, void *destination);

  std::vector<grpc::Slice> slices_;
  size_t slice_ = 0, offset_ = 0;
  size_t payloadSize_ = 0;
};

/// Sends `value` as chunks: `header` (with its block and kind set by the
/// caller) is completed for each chunk and passed with the chunk's frame to
/// `send`, which returns false to stop. `value` is kept alive by the frames.
/// Returns whether every chunk was sent.
bool sendTensor(wire::Chunk header, std::shared_ptr<const Tensor> value,
                const std::function<bool(grpc::ByteBuffer)> &send);

/// Puts a value together from its chunks.
class TensorAssembler {
public:
  /// Whether the value under way is complete (or none has begun).
  bool complete() const { return !started_ || received_ == total_; }

  /// Adds the chunk `header` with its payload in `frame` to the value: the
  /// first chunk (offset 0) sizes `out` after its dtype and shape, which
  /// `accept` checks first; the others must follow in order. `what` names
  /// the value in messages.
  Status add(const wire::Chunk &header, const FrameReader &frame, Tensor &out,
             const std::function<Status(DType, const Shape &)> &accept,
             const std::string &what);

private:
  bool started_ = false;
  int32_t block_ = 0;
  size_t total_ = 0, received_ = 0;
};

} // namespace openks::runtime::grpc_wire

#endif // OPENKS_LIB_RUNTIME_GRPC_FRAME_H
