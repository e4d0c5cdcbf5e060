//===- Frame.cpp - gRPC messages of a header and raw bytes ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Frame.h"

#include <algorithm>
#include <cstring>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::grpc_wire;

/// Returns the slice of `header`'s length and bytes.
static grpc::Slice encodeHeader(const google::protobuf::MessageLite &header) {
  std::string bytes = header.SerializeAsString();
  std::string framed(4 + bytes.size(), '\0');
  uint32_t size = static_cast<uint32_t>(bytes.size());
  for (int byte = 0; byte < 4; ++byte)
    framed[byte] = static_cast<char>((size >> (8 * byte)) & 0xff);
  std::memcpy(framed.data() + 4, bytes.data(), bytes.size());
  return grpc::Slice(framed);
}

grpc::ByteBuffer
grpc_wire::encodeFrame(const google::protobuf::MessageLite &header) {
  grpc::Slice slice = encodeHeader(header);
  return grpc::ByteBuffer(&slice, 1);
}

grpc::ByteBuffer
grpc_wire::encodeFrame(const google::protobuf::MessageLite &header,
                       const void *payload, size_t size,
                       std::shared_ptr<const void> owner) {
  if (size == 0)
    return encodeFrame(header);
  grpc::Slice slices[2] = {
      encodeHeader(header),
      // gRPC only reads the bytes; the slice holds its own reference to
      // their owner and drops it once they are written.
      grpc::Slice(
          const_cast<void *>(payload), size,
          [](void *owner) {
            delete static_cast<std::shared_ptr<const void> *>(owner);
          },
          new std::shared_ptr<const void>(std::move(owner)))};
  return grpc::ByteBuffer(slices, 2);
}

Status FrameReader::open(const grpc::ByteBuffer &message,
                         google::protobuf::MessageLite &header) {
  slices_.clear();
  slice_ = offset_ = 0;
  if (!message.Dump(&slices_).ok())
    return Status::dataLoss("a message could not be read");
  size_t size = message.Length();
  auto damaged = [&](const char *why) {
    return Status::dataLoss("a damaged message of {} bytes arrived: {}", size,
                            why);
  };
  if (size < 4)
    return damaged("it is shorter than its header's length");
  unsigned char length[4];
  consume(4, length);
  size_t headerSize = size_t(length[0]) | size_t(length[1]) << 8 |
                      size_t(length[2]) << 16 | size_t(length[3]) << 24;
  if (headerSize > size - 4)
    return damaged("its header runs past its end");
  std::string bytes(headerSize, '\0');
  consume(headerSize, bytes.data());
  if (!header.ParseFromString(bytes))
    return damaged("its header does not parse");
  payloadSize_ = size - 4 - headerSize;
  return Status::ok();
}

void FrameReader::consume(size_t size, void *destination) {
  auto *out = static_cast<unsigned char *>(destination);
  while (size > 0) {
    const grpc::Slice &slice = slices_[slice_];
    size_t take = std::min(size, slice.size() - offset_);
    std::memcpy(out, slice.begin() + offset_, take);
    out += take;
    size -= take;
    offset_ += take;
    if (offset_ == slice.size()) {
      ++slice_;
      offset_ = 0;
    }
  }
}

void FrameReader::copyPayload(void *destination) const {
  auto *out = static_cast<unsigned char *>(destination);
  size_t offset = offset_;
  for (size_t slice = slice_; slice < slices_.size(); ++slice, offset = 0) {
    size_t take = slices_[slice].size() - offset;
    if (take == 0)
      continue;
    std::memcpy(out, slices_[slice].begin() + offset, take);
    out += take;
  }
}

bool grpc_wire::sendTensor(wire::Chunk header,
                           std::shared_ptr<const Tensor> value,
                           const std::function<bool(grpc::ByteBuffer)> &send) {
  header.set_dtype(static_cast<int32_t>(value->dtype()));
  header.clear_shape();
  for (int64_t dim : value->shape())
    header.add_shape(dim);
  size_t total = value->numel() * dtypeSize(value->dtype());
  const auto *bytes = static_cast<const unsigned char *>(value->rawData());
  size_t offset = 0;
  do {
    size_t size = std::min(kChunkBytes, total - offset);
    header.set_offset(static_cast<int64_t>(offset));
    if (!send(encodeFrame(header, bytes + offset, size, value)))
      return false;
    // Only the first chunk says what the value is.
    header.clear_shape();
    offset += size;
  } while (offset < total);
  return true;
}

/// Returns the shape in `header`, or an error when it is not one a tensor
/// may have.
static StatusOr<Shape> readShape(const wire::Chunk &header,
                                 const std::string &what) {
  if (header.shape_size() > Shape::kMaxRank)
    return Status::dataLoss("{} arrived with rank {}, above the largest ({})",
                            what, header.shape_size(), Shape::kMaxRank);
  Shape shape;
  // The product of the sizes that are not 0 stays within what a tensor may
  // hold, so that no product of sizes (a row's width) overflows, even in a
  // tensor with no elements.
  int64_t numel = 1;
  for (int64_t dim : header.shape()) {
    if (dim < 0 || dim > kMaxTensorElements ||
        (dim > 0 && numel > kMaxTensorElements / dim))
      return Status::dataLoss("{} arrived with an impossible shape", what);
    numel = std::max<int64_t>(numel * dim, 1);
    shape.push_back(dim);
  }
  return shape;
}

Status
TensorAssembler::add(const wire::Chunk &header, const FrameReader &frame,
                     Tensor &out,
                     const std::function<Status(DType, const Shape &)> &accept,
                     const std::string &what) {
  if (complete()) {
    if (header.offset() != 0)
      return Status::dataLoss("{} began at byte {}, not at its start", what,
                              header.offset());
    if (header.dtype() < 0 || header.dtype() > static_cast<int>(DType::I64))
      return Status::dataLoss("{} arrived with an unknown element type {}",
                              what, header.dtype());
    DType dtype = static_cast<DType>(header.dtype());
    StatusOr<Shape> shape = readShape(header, what);
    if (!shape)
      return shape.status();
    OPENKS_RETURN_IF_ERROR(accept(dtype, *shape));
    if (out.dtype() == dtype) {
      OPENKS_RETURN_IF_ERROR(out.tryReserve(shape->numel()));
      out.resize(*shape);
    } else {
      StatusOr<Tensor> fresh = Tensor::allocate(dtype, *shape);
      if (!fresh)
        return fresh.status();
      out = std::move(*fresh);
    }
    started_ = true;
    block_ = header.block();
    total_ = shape->numel() * dtypeSize(dtype);
    received_ = 0;
  } else if (header.block() != block_ ||
             header.offset() != static_cast<int64_t>(received_)) {
    return Status::dataLoss("{} was cut off at byte {} of {}: the next chunk "
                            "is of block {} at byte {}",
                            what, received_, total_, header.block(),
                            header.offset());
  }
  if (frame.payloadSize() > total_ - received_)
    return Status::dataLoss("{} arrived with {} bytes more than its {} bytes",
                            what, frame.payloadSize() - (total_ - received_),
                            total_);
  frame.copyPayload(static_cast<unsigned char *>(out.rawData()) + received_);
  received_ += frame.payloadSize();
  return Status::ok();
}
