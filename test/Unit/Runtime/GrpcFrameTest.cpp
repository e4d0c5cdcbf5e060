//===- GrpcFrameTest.cpp - Tests of the gRPC wire framing -----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Sends tensors through sendTensor and puts them together again with
// FrameReader and TensorAssembler, without a network: values of every size
// come back bit for bit in as many chunks as their bytes need, a frame
// refers to its tensor's own buffer and keeps it alive, damaged frames and
// chunks are DataLoss errors with a message, and a value above 2 GiB crosses
// in 4 MiB chunks.
//
//===----------------------------------------------------------------------===//

#include "Frame.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::grpc_wire;

namespace {

/// What TensorAssembler::add asks before it sizes its output.
using AcceptFn = std::function<Status(DType, const Shape &)>;

/// The block every value of these tests belongs to.
constexpr int32_t kBlock = 7;

/// Accepts every value.
Status acceptAll(DType, const Shape &) { return Status::ok(); }

/// Fails the test when asked: the chunk should be refused before `accept`.
Status acceptNever(DType, const Shape &) {
  ADD_FAILURE() << "accept was asked about a chunk refused before it";
  return Status::ok();
}

/// Returns the size in bytes of `tensor`'s elements.
size_t byteSize(const Tensor &tensor) {
  return static_cast<size_t>(tensor.numel()) * dtypeSize(tensor.dtype());
}

/// Returns the number of frames a value of `bytes` is sent as.
size_t framesFor(size_t bytes) {
  return bytes == 0 ? 1 : (bytes + kChunkBytes - 1) / kChunkBytes;
}

/// Returns a tensor of `dtype` and `shape` whose bytes are a pattern that
/// differs from one chunk to the next.
std::shared_ptr<Tensor> patterned(DType dtype, const Shape &shape) {
  auto tensor = std::make_shared<Tensor>(dtype, shape);
  auto *bytes = static_cast<uint8_t *>(tensor->rawData());
  for (size_t i = 0, size = byteSize(*tensor); i < size; ++i)
    bytes[i] = static_cast<uint8_t>((i * 0x9E3779B97F4A7C15ull) >> 56);
  return tensor;
}

/// Returns the header of a push of block kBlock, as a trainer fills it in.
wire::Chunk pushHeader() {
  wire::Chunk header;
  header.set_block(kBlock);
  header.set_kind(1);
  header.set_trainer(4);
  return header;
}

/// Returns the frames sendTensor makes of `value`.
std::vector<grpc::ByteBuffer> sendAll(std::shared_ptr<const Tensor> value) {
  std::vector<grpc::ByteBuffer> frames;
  EXPECT_TRUE(
      sendTensor(pushHeader(), std::move(value), [&](grpc::ByteBuffer frame) {
        frames.push_back(std::move(frame));
        return true;
      }));
  return frames;
}

/// Opens `message` and adds its chunk to the value `assembler` puts
/// together in `out`.
Status receive(TensorAssembler &assembler, const grpc::ByteBuffer &message,
               Tensor &out, const AcceptFn &accept = acceptAll) {
  FrameReader frame;
  wire::Chunk header;
  OPENKS_RETURN_IF_ERROR(frame.open(message, header));
  return assembler.add(header, frame, out, accept, "the value");
}

/// Puts the value of `frames` together in `out`; expects it complete after
/// the last frame only.
Status receiveAll(const std::vector<grpc::ByteBuffer> &frames, Tensor &out) {
  TensorAssembler assembler;
  for (size_t i = 0; i < frames.size(); ++i) {
    OPENKS_RETURN_IF_ERROR(receive(assembler, frames[i], out));
    EXPECT_EQ(assembler.complete(), i + 1 == frames.size()) << "frame " << i;
  }
  return Status::ok();
}

/// Expects `actual` to be `expected`: element type, shape and bytes.
void expectSame(const Tensor &expected, const Tensor &actual) {
  EXPECT_EQ(actual.dtype(), expected.dtype());
  EXPECT_EQ(actual.shape(), expected.shape())
      << actual.shape().str() << " vs " << expected.shape().str();
  ASSERT_EQ(byteSize(actual), byteSize(expected));
  EXPECT_EQ(
      std::memcmp(actual.rawData(), expected.rawData(), byteSize(expected)), 0);
}

/// Sends a patterned tensor of `dtype` and `shape` and puts it together
/// again: it takes framesFor(its bytes) frames and comes back the same.
void expectRoundTrip(DType dtype, const Shape &shape) {
  SCOPED_TRACE(typeString(dtype, shape));
  std::shared_ptr<Tensor> value = patterned(dtype, shape);
  std::vector<grpc::ByteBuffer> frames = sendAll(value);
  EXPECT_EQ(frames.size(), framesFor(byteSize(*value)));
  Tensor out;
  Status status = receiveAll(frames, out);
  ASSERT_TRUE(status.isOk()) << status.message();
  expectSame(*value, out);
}

/// Returns `size` as the 4-byte little-endian length before a header.
std::string lengthPrefix(uint32_t size) {
  std::string bytes(4, '\0');
  for (int byte = 0; byte < 4; ++byte)
    bytes[byte] = static_cast<char>((size >> (8 * byte)) & 0xff);
  return bytes;
}

/// Returns a message of one slice holding `bytes`.
grpc::ByteBuffer messageOf(const std::string &bytes) {
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

/// Returns a message of `bytes` cut into slices of `step` bytes, which refer
/// to `bytes` (as gRPC hands over a message it received in pieces).
grpc::ByteBuffer sliced(const std::string &bytes, size_t step) {
  std::vector<grpc::Slice> slices;
  for (size_t offset = 0; offset < bytes.size(); offset += step)
    slices.emplace_back(bytes.data() + offset,
                        std::min(step, bytes.size() - offset),
                        grpc::Slice::STATIC_SLICE);
  return grpc::ByteBuffer(slices.data(), slices.size());
}

/// Returns the bytes of `message`.
std::string bytesOf(const grpc::ByteBuffer &message) {
  std::vector<grpc::Slice> slices;
  EXPECT_TRUE(message.Dump(&slices).ok());
  std::string bytes;
  for (const grpc::Slice &slice : slices)
    bytes.append(reinterpret_cast<const char *>(slice.begin()), slice.size());
  return bytes;
}

/// Returns a frame of `header` and `payload`, made by hand.
grpc::ByteBuffer chunkFrame(const wire::Chunk &header,
                            const std::string &payload) {
  std::string serialized = header.SerializeAsString();
  return messageOf(lengthPrefix(static_cast<uint32_t>(serialized.size())) +
                   serialized + payload);
}

/// Returns the first chunk of a value of block kBlock, `dtype` (a DType or
/// not) and `shape`.
wire::Chunk firstChunk(int32_t dtype, std::initializer_list<int64_t> shape) {
  wire::Chunk header = pushHeader();
  header.set_dtype(dtype);
  for (int64_t dim : shape)
    header.add_shape(dim);
  return header;
}

/// Expects `status` to be DataLoss with a message that holds `fragment`.
void expectDataLoss(const Status &status, const std::string &fragment) {
  EXPECT_EQ(status.code(), StatusCode::DataLoss)
      << statusCodeName(status.code()) << ": " << status.message();
  EXPECT_NE(status.message().find(fragment), std::string::npos)
      << status.message();
}

/// Adds the chunk `header` with `payload` to a fresh assembler whose output
/// holds f32 [1, 2, 3], and returns the result; expects the chunk refused
/// and the output untouched: neither reallocated nor reshaped nor written.
Status addRefused(const wire::Chunk &header, const std::string &payload,
                  const AcceptFn &accept = acceptNever) {
  Tensor out(DType::F32, Shape{3});
  for (int i = 0; i < 3; ++i)
    out.data<float>()[i] = static_cast<float>(i + 1);
  const void *buffer = out.rawData();
  TensorAssembler assembler;
  Status status = receive(assembler, chunkFrame(header, payload), out, accept);
  EXPECT_FALSE(status.isOk());
  EXPECT_EQ(out.dtype(), DType::F32);
  EXPECT_EQ(out.shape(), Shape{3});
  EXPECT_EQ(out.rawData(), buffer);
  EXPECT_EQ(out.data<float>()[0], 1.0f);
  EXPECT_EQ(out.data<float>()[2], 3.0f);
  EXPECT_TRUE(assembler.complete());
  return status;
}

/// Returns the memory the kernel reports available, in bytes, or 0 when
/// /proc/meminfo does not say.
size_t availableMemory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key, rest;
  size_t kibibytes;
  while (meminfo >> key >> kibibytes) {
    if (key == "MemAvailable:")
      return kibibytes << 10;
    std::getline(meminfo, rest);
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Round trips
//===----------------------------------------------------------------------===//

TEST(GrpcFrameTest, AnEmptyTensorIsOneFrameWithoutPayload) {
  expectRoundTrip(DType::F32, Shape{0, 3});
  std::vector<grpc::ByteBuffer> frames = sendAll(patterned(DType::F64, {0}));
  ASSERT_EQ(frames.size(), 1u);
  FrameReader frame;
  wire::Chunk header;
  ASSERT_TRUE(frame.open(frames[0], header).isOk());
  EXPECT_EQ(frame.payloadSize(), 0u);
  EXPECT_EQ(header.shape_size(), 1);
}

TEST(GrpcFrameTest, AScalarCrossesWithRankZero) {
  std::shared_ptr<Tensor> value = patterned(DType::F64, Shape{});
  value->data<double>()[0] = 3.25;
  std::vector<grpc::ByteBuffer> frames = sendAll(value);
  ASSERT_EQ(frames.size(), 1u);
  Tensor out(DType::F64, Shape{4, 4});
  Status status = receiveAll(frames, out);
  ASSERT_TRUE(status.isOk()) << status.message();
  EXPECT_EQ(out.rank(), 0);
  EXPECT_EQ(out.data<double>()[0], 3.25);
}

TEST(GrpcFrameTest, ExactlyOneChunkOfBytesIsOneFrame) {
  expectRoundTrip(DType::F64, Shape{512, int64_t(kChunkBytes / 8 / 512)});
}

TEST(GrpcFrameTest, OneElementPastAChunkIsASecondFrame) {
  expectRoundTrip(DType::F64, Shape{int64_t(kChunkBytes / 8 + 1)});
}

TEST(GrpcFrameTest, NineMebibytesAreThreeFrames) {
  // 9,437,064 bytes: two full chunks and a partial one.
  expectRoundTrip(DType::I64, Shape{3, 7, 56173});
}

TEST(GrpcFrameTest, OddShapesComeBackTheSame) {
  expectRoundTrip(DType::F32, Shape{17});
  expectRoundTrip(DType::F32, Shape{3, 5, 7});
  expectRoundTrip(DType::I64, Shape{1, 1, 1, 1, 1, 1});
  expectRoundTrip(DType::F64, Shape{2, 0, 5});
  expectRoundTrip(DType::F32, Shape{int64_t(kChunkBytes / 4 + 3), 1});
}

TEST(GrpcFrameTest, OnlyTheFirstChunkSaysWhatTheValueIs) {
  std::shared_ptr<Tensor> value = patterned(DType::I64, Shape{3, 7, 56173});
  std::vector<grpc::ByteBuffer> frames = sendAll(value);
  ASSERT_EQ(frames.size(), 3u);
  for (size_t i = 0; i < frames.size(); ++i) {
    SCOPED_TRACE(i);
    FrameReader frame;
    wire::Chunk header;
    ASSERT_TRUE(frame.open(frames[i], header).isOk());
    EXPECT_EQ(header.block(), kBlock);
    EXPECT_EQ(header.kind(), 1);
    EXPECT_EQ(header.trainer(), 4);
    EXPECT_EQ(header.dtype(), static_cast<int32_t>(DType::I64));
    EXPECT_EQ(header.offset(), static_cast<int64_t>(i * kChunkBytes));
    EXPECT_EQ(header.shape_size(), i == 0 ? 3 : 0);
    EXPECT_EQ(frame.payloadSize(),
              std::min(kChunkBytes, byteSize(*value) - i * kChunkBytes));
  }
}

TEST(GrpcFrameTest, OneAssemblerTakesValuesOneAfterAnother) {
  std::shared_ptr<Tensor> first =
      patterned(DType::F64, {int64_t(kChunkBytes / 8 + 1)});
  std::shared_ptr<Tensor> second = patterned(DType::I64, {3, 5});
  std::shared_ptr<Tensor> third = patterned(DType::F32, {0});
  TensorAssembler assembler;
  for (const std::shared_ptr<Tensor> &value : {first, second, third}) {
    SCOPED_TRACE(value->typeString());
    std::vector<grpc::ByteBuffer> frames = sendAll(value);
    Tensor out;
    for (size_t i = 0; i < frames.size(); ++i) {
      Status status = receive(assembler, frames[i], out);
      ASSERT_TRUE(status.isOk()) << status.message();
      EXPECT_EQ(assembler.complete(), i + 1 == frames.size());
    }
    expectSame(*value, out);
  }
}

TEST(GrpcFrameTest, AnOutputOfTheSameTypeKeepsItsBuffer) {
  std::shared_ptr<Tensor> value = patterned(DType::F64, {4, 5});
  Tensor out(DType::F64, Shape{1000});
  const void *buffer = out.rawData();
  Status status = receiveAll(sendAll(value), out);
  ASSERT_TRUE(status.isOk()) << status.message();
  EXPECT_EQ(out.rawData(), buffer);
  expectSame(*value, out);

  Tensor other(DType::F32, Shape{1000});
  status = receiveAll(sendAll(value), other);
  ASSERT_TRUE(status.isOk()) << status.message();
  expectSame(*value, other);
}

TEST(GrpcFrameTest, AFrameSplitIntoManySlicesReadsTheSame) {
  std::shared_ptr<Tensor> value = patterned(DType::F32, {5, 13});
  std::vector<grpc::ByteBuffer> frames = sendAll(value);
  ASSERT_EQ(frames.size(), 1u);
  std::string bytes = bytesOf(frames[0]);
  for (size_t step : {1, 3, 7, 64}) {
    SCOPED_TRACE(step);
    Tensor out;
    TensorAssembler assembler;
    Status status = receive(assembler, sliced(bytes, step), out);
    ASSERT_TRUE(status.isOk()) << status.message();
    expectSame(*value, out);
  }
}

TEST(GrpcFrameTest, AFrameIsALittleEndianLengthAHeaderAndAPayload) {
  wire::Control control;
  control.set_message(std::string(300, 'x'));
  std::string serialized = control.SerializeAsString();
  ASSERT_GT(serialized.size(), 255u);
  EXPECT_EQ(bytesOf(encodeFrame(control)),
            lengthPrefix(static_cast<uint32_t>(serialized.size())) +
                serialized);

  wire::Chunk header = firstChunk(static_cast<int32_t>(DType::F32), {2});
  const std::string payload = "8 bytes!";
  serialized = header.SerializeAsString();
  EXPECT_EQ(
      bytesOf(encodeFrame(header, payload.data(), payload.size(), nullptr)),
      lengthPrefix(static_cast<uint32_t>(serialized.size())) + serialized +
          payload);
}

TEST(GrpcFrameTest, ARefusedSendStopsTheValue) {
  std::shared_ptr<Tensor> value = patterned(DType::I64, {3, 7, 56173});
  int calls = 0;
  EXPECT_FALSE(sendTensor(pushHeader(), value,
                          [&](grpc::ByteBuffer) { return ++calls < 2; }));
  EXPECT_EQ(calls, 2);
}

//===----------------------------------------------------------------------===//
// No copy on send
//===----------------------------------------------------------------------===//

TEST(GrpcFrameTest, ThePayloadIsSentFromTheTensorsOwnBuffer) {
  std::shared_ptr<Tensor> value = patterned(DType::I64, {3, 7, 56173});
  std::vector<grpc::ByteBuffer> frames = sendAll(value);
  ASSERT_EQ(frames.size(), 3u);
  const auto *bytes = static_cast<const uint8_t *>(value->rawData());
  for (size_t i = 0; i < frames.size(); ++i) {
    SCOPED_TRACE(i);
    std::vector<grpc::Slice> slices;
    ASSERT_TRUE(frames[i].Dump(&slices).ok());
    // The header, then the payload where it lies in the tensor.
    ASSERT_EQ(slices.size(), 2u);
    size_t offset = i * kChunkBytes;
    EXPECT_EQ(slices[1].begin(), bytes + offset);
    EXPECT_EQ(slices[1].size(),
              std::min(kChunkBytes, byteSize(*value) - offset));
  }
}

TEST(GrpcFrameTest, FramesKeepTheirTensorAliveUntilTheLastGoes) {
  std::shared_ptr<Tensor> value =
      patterned(DType::F64, {int64_t(kChunkBytes / 8 + 1)});
  Tensor expected(DType::F64, value->shape());
  expected.copyFrom(*value);
  std::weak_ptr<Tensor> watch = value;
  std::vector<grpc::ByteBuffer> frames = sendAll(value);
  ASSERT_EQ(frames.size(), 2u);
  // A reference for each frame, besides this test's.
  EXPECT_EQ(value.use_count(), 3);

  value.reset();
  EXPECT_FALSE(watch.expired());
  Tensor out;
  Status status = receiveAll(frames, out);
  ASSERT_TRUE(status.isOk()) << status.message();
  expectSame(expected, out);

  frames.pop_back();
  EXPECT_FALSE(watch.expired());
  frames.clear();
  EXPECT_TRUE(watch.expired());
}

//===----------------------------------------------------------------------===//
// Damaged frames
//===----------------------------------------------------------------------===//

TEST(GrpcFrameTest, AMessageWithoutAHeaderLengthIsDataLoss) {
  FrameReader frame;
  wire::Chunk header;
  expectDataLoss(frame.open(grpc::ByteBuffer(), header), "could not be read");
  expectDataLoss(frame.open(messageOf(""), header),
                 "of 0 bytes arrived: it is shorter than its header's length");
  expectDataLoss(frame.open(messageOf(std::string("\x01\x00\x00", 3)), header),
                 "of 3 bytes arrived: it is shorter than its header's length");
}

TEST(GrpcFrameTest, AHeaderLongerThanItsMessageIsDataLoss) {
  FrameReader frame;
  wire::Chunk header;
  std::string serialized = firstChunk(0, {2, 3}).SerializeAsString();
  expectDataLoss(frame.open(messageOf(lengthPrefix(static_cast<uint32_t>(
                                          serialized.size() + 1)) +
                                      serialized),
                            header),
                 "its header runs past its end");
  expectDataLoss(
      frame.open(messageOf(lengthPrefix(0xffffffffu) + "abc"), header),
      "its header runs past its end");
}

TEST(GrpcFrameTest, AHeaderThatDoesNotParseIsDataLoss) {
  FrameReader frame;
  wire::Chunk header;
  // A length-delimited field of 16 bytes with none; a varint cut off; field
  // number 0.
  for (std::string damaged : {std::string("\x22\x10"), std::string("\x08\xff"),
                              std::string("\x00\x01", 2)}) {
    SCOPED_TRACE(damaged.size());
    expectDataLoss(frame.open(messageOf(lengthPrefix(static_cast<uint32_t>(
                                            damaged.size())) +
                                        damaged + "payload"),
                              header),
                   "its header does not parse");
  }
}

TEST(GrpcFrameTest, AValueThatDoesNotBeginAtByteZeroIsDataLoss) {
  wire::Chunk header = firstChunk(static_cast<int32_t>(DType::F64), {2});
  header.set_offset(8);
  expectDataLoss(addRefused(header, std::string(8, 'x')),
                 "the value began at byte 8, not at its start");
}

TEST(GrpcFrameTest, AnUnknownElementTypeIsDataLoss) {
  expectDataLoss(addRefused(firstChunk(3, {2}), std::string(8, 'x')),
                 "the value arrived with an unknown element type 3");
  expectDataLoss(addRefused(firstChunk(-1, {2}), std::string(8, 'x')),
                 "unknown element type -1");
}

TEST(GrpcFrameTest, ImpossibleShapesAreDataLoss) {
  const auto f32 = static_cast<int32_t>(DType::F32);
  expectDataLoss(addRefused(firstChunk(f32, {2, -1}), ""),
                 "the value arrived with an impossible shape");
  expectDataLoss(
      addRefused(firstChunk(f32, {int64_t(1) << 40, int64_t(1) << 40}), ""),
      "impossible shape");
  expectDataLoss(addRefused(firstChunk(f32, {int64_t(1) << 31, int64_t(1) << 31,
                                             int64_t(1) << 31}),
                            ""),
                 "impossible shape");
  expectDataLoss(addRefused(firstChunk(f32, {INT64_MAX, 2}), ""),
                 "impossible shape");
  // More elements than a tensor may hold, though the bytes would not
  // overflow: refused before anything is allocated.
  expectDataLoss(
      addRefused(firstChunk(f32, {int64_t(1) << 21, int64_t(1) << 20}), ""),
      "impossible shape");
  // No elements, but a row width that overflows.
  expectDataLoss(
      addRefused(firstChunk(f32, {0, int64_t(1) << 62, int64_t(1) << 62}), ""),
      "impossible shape");
}

TEST(GrpcFrameTest, ARankAboveTheLargestIsDataLoss) {
  static_assert(Shape::kMaxRank == 6, "the shape below is one rank above");
  expectDataLoss(addRefused(firstChunk(static_cast<int32_t>(DType::F32),
                                       {1, 1, 1, 1, 1, 1, 1}),
                            std::string(4, 'x')),
                 "the value arrived with rank 7, above the largest (6)");
}

TEST(GrpcFrameTest, ARefusalFromAcceptIsReturnedAsIs) {
  bool asked = false;
  Status status = addRefused(
      firstChunk(static_cast<int32_t>(DType::F64), {3, 4}),
      std::string(96, 'x'), [&](DType dtype, const Shape &shape) {
        asked = true;
        EXPECT_EQ(dtype, DType::F64);
        EXPECT_EQ(shape, (Shape{3, 4}));
        return Status::invalidArgument("block 7 takes {}, not {}",
                                       typeString(DType::F32, Shape{3}),
                                       typeString(dtype, shape));
      });
  EXPECT_TRUE(asked);
  EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
  EXPECT_EQ(status.message(),
            "block 7 takes tensor<3xf32>, not tensor<3x4xf64>");
}

TEST(GrpcFrameTest, ChunksOutOfOrderAreDataLoss) {
  std::vector<grpc::ByteBuffer> frames =
      sendAll(patterned(DType::I64, {3, 7, 56173}));
  ASSERT_EQ(frames.size(), 3u);
  const std::string cutOff = "the value was cut off at byte 4194304 of 9437064";

  // The third chunk after the first.
  TensorAssembler assembler;
  Tensor out;
  ASSERT_TRUE(receive(assembler, frames[0], out).isOk());
  expectDataLoss(receive(assembler, frames[2], out),
                 cutOff + ": the next chunk is of block 7 at byte 8388608");

  // The first chunk twice.
  TensorAssembler again;
  ASSERT_TRUE(receive(again, frames[0], out).isOk());
  expectDataLoss(receive(again, frames[0], out), cutOff);

  // Another block's chunk where the second was due.
  TensorAssembler mixed;
  ASSERT_TRUE(receive(mixed, frames[0], out).isOk());
  wire::Chunk header = pushHeader();
  header.set_block(kBlock + 1);
  header.set_offset(kChunkBytes);
  expectDataLoss(receive(mixed, chunkFrame(header, "12345678"), out),
                 cutOff + ": the next chunk is of block 8 at byte 4194304");

  // A chunk that does not begin a value after one that ended it.
  TensorAssembler ended;
  for (const grpc::ByteBuffer &frame : frames)
    ASSERT_TRUE(receive(ended, frame, out).isOk());
  expectDataLoss(receive(ended, frames[1], out),
                 "the value began at byte 4194304, not at its start");
}

TEST(GrpcFrameTest, MorePayloadThanTheValueLacksIsDataLoss) {
  // In the first chunk.
  TensorAssembler assembler;
  Tensor out;
  expectDataLoss(
      receive(assembler,
              chunkFrame(firstChunk(static_cast<int32_t>(DType::F64), {2}),
                         std::string(24, 'x')),
              out),
      "the value arrived with 8 bytes more than its 16 bytes");

  // In a later chunk.
  std::vector<grpc::ByteBuffer> frames =
      sendAll(patterned(DType::F64, {int64_t(kChunkBytes / 8 + 1)}));
  ASSERT_EQ(frames.size(), 2u);
  TensorAssembler later;
  ASSERT_TRUE(receive(later, frames[0], out).isOk());
  wire::Chunk header = pushHeader();
  header.set_offset(kChunkBytes);
  expectDataLoss(receive(later, chunkFrame(header, std::string(16, 'x')), out),
                 "the value arrived with 8 bytes more than its 4194312 bytes");
}

//===----------------------------------------------------------------------===//
// A large value
//===----------------------------------------------------------------------===//

TEST(GrpcFrameTest, AValueLargerThan2GiBCrossesInChunks) {
  // 2 GiB, half a chunk and one element: the last chunk is a partial one.
  constexpr size_t kGiB = size_t(1) << 30;
  constexpr size_t kWanted = 2 * kGiB + kChunkBytes / 2 + 8;
  // The value is held twice, sent and received; on a smaller machine the
  // test takes the largest value that leaves 4 GiB free.
  size_t available = availableMemory();
  size_t bytes = kWanted;
  if (available < 2 * kWanted + kGiB)
    bytes = available > 4 * kGiB ? (available - 4 * kGiB) / 2 / 8 * 8 : 0;
  if (bytes < 2 * kChunkBytes)
    GTEST_SKIP() << "only " << available << " bytes of memory are available";
  RecordProperty("bytes", std::to_string(bytes));
  std::cout << "sending a value of " << bytes << " bytes ("
            << static_cast<double>(bytes) / kGiB << " GiB)\n";

  // Neither buffer is zero-filled: each page is written once, by the
  // pattern or by the assembler's copy, which keeps the test's time to that
  // of writing the two buffers. The output has the value's element type, so
  // the assembler only reserves its room, which it does not zero. Element i is
  // i + 1: no element reads right as an untouched zero.
  auto start = std::chrono::steady_clock::now();
  const auto numel = static_cast<int64_t>(bytes / 8);
  auto value = std::make_shared<Tensor>(DType::I64, Shape{0});
  Status status = value->tryReserve(numel);
  ASSERT_TRUE(status.isOk()) << status.message();
  value->resize(Shape{numel});
  int64_t *data = value->data<int64_t>();
  for (int64_t i = 0; i < numel; ++i)
    data[i] = i + 1;

  TensorAssembler assembler;
  Tensor out(DType::I64, Shape{0});
  size_t frames = 0;
  EXPECT_TRUE(sendTensor(pushHeader(), value, [&](grpc::ByteBuffer frame) {
    ++frames;
    status = receive(assembler, frame, out);
    return status.isOk();
  }));
  ASSERT_TRUE(status.isOk()) << status.message();
  EXPECT_TRUE(assembler.complete());
  EXPECT_EQ(frames, framesFor(bytes));
  ASSERT_EQ(out.dtype(), DType::I64);
  ASSERT_EQ(out.shape(), Shape{numel});

  // The first and last element of every chunk, and a sample in between.
  const int64_t *received = out.data<int64_t>();
  const auto perChunk = static_cast<int64_t>(kChunkBytes / 8);
  for (int64_t first = 0; first < numel; first += perChunk) {
    int64_t last = std::min(first + perChunk, numel) - 1;
    ASSERT_EQ(received[first], first + 1);
    ASSERT_EQ(received[last], last + 1);
  }
  for (int64_t i = 0; i < numel; i += 1000003)
    ASSERT_EQ(received[i], i + 1);
  std::cout << "sent and received in "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             start)
                   .count()
            << " s\n";
}

} // namespace
