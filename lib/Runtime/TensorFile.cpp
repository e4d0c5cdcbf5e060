//===- TensorFile.cpp - Paddle's tensor file format -----------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Generated: the desc. It is a protobuf message, Paddle's
// VarType.TensorDesc, and protoc's class for it (TensorDesc.proto, compiled
// into the build tree as TensorDesc.pb.h) serializes and parses it.
//
// Hand-written, because they are not protobuf: the framing around the desc,
// which is Paddle's own. The versions, the LoD levels and the desc's size
// are fixed-width little-endian integers, and the elements are raw bytes;
// Reader and appendInteger read and write them.
//
// Hand-written as well, and kept so: checkDesc, a bounded walk over the
// desc's bytes before protobuf parses them. Protobuf's parser says only
// whether a message parsed; the walk names the defect with the messages
// this reader has always given (a truncated or overlong varint, a wire type
// no field can have, too many dims, a type code Paddle does not have). The
// desc's size is capped (kMaxDescBytes) before anything is read, which
// bounds what protobuf could allocate, and the walk refuses more than
// Shape::kMaxRank dims before protobuf allocates any. The walk decodes
// nothing for the reader: the values come from the generated class.
//
// What a desc may hold, as the hand-written decoder that came before this
// one allowed, or stricter where protobuf differs:
// - dims unpacked, as written here and by Paddle, or packed;
// - fields the message does not declare, of wire type varint, fixed64,
//   fixed32 or length-delimited: skipped (protobuf keeps them, within the
//   desc's cap);
// - no groups (wire types 3 and 4) nor wire types 6 and 7: refused, although
//   protobuf would keep groups as unknown fields;
// - no field number 0 and none above 2^29 - 1: refused ("invalid tag"),
//   as protobuf's parser does; the earlier decoder skipped them;
// - data_type more than once: the last counts, as in protobuf, but every
//   one must be a code of Paddle's VarType.Type. Protobuf would set an
//   unknown code aside as an unknown field and keep the value before it,
//   and would cut a code to 32 bits; the earlier decoder looked only at the
//   last code.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/TensorFile.h"

#include "TensorDesc.pb.h"

#include <cstring>
#include <optional>

using namespace openks;
using namespace openks::runtime;

/// The most LoD levels a file may declare; Paddle's sequences have a few.
static constexpr uint64_t kMaxLoDLevels = 64;
/// The largest desc accepted: a type and at most kMaxRank dims take < 100.
static constexpr int32_t kMaxDescBytes = 4096;

// Protobuf wire types, the largest field number and the TensorDesc's field
// numbers, for checkDesc.
static constexpr uint64_t kVarint = 0, kFixed64 = 1, kLengthDelimited = 2,
                          kFixed32 = 5;
static constexpr uint64_t kMaxFieldNumber = (uint64_t(1) << 29) - 1;
static constexpr uint64_t kDataTypeField =
    proto::VarType::TensorDesc::kDataTypeFieldNumber;
static constexpr uint64_t kDimsField =
    proto::VarType::TensorDesc::kDimsFieldNumber;

/// Returns Paddle's VarType.Type of `dtype`.
static proto::VarType::Type getPaddleType(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return proto::VarType::FP32;
  case DType::F64:
    return proto::VarType::FP64;
  case DType::I64:
    return proto::VarType::INT64;
  }
  return proto::VarType::RAW;
}

int openks::runtime::paddleTypeCode(DType dtype) {
  return getPaddleType(dtype);
}

/// Returns the DType of Paddle's type `code`, if the runtime has it.
static std::optional<DType> getDType(proto::VarType::Type code) {
  for (DType dtype : {DType::F32, DType::F64, DType::I64})
    if (getPaddleType(dtype) == code)
      return dtype;
  return std::nullopt;
}

/// Appends the little-endian bytes of `value`.
template <typename T> static void appendInteger(std::string &out, T value) {
  for (size_t i = 0; i < sizeof(T); ++i)
    out.push_back(static_cast<char>(
        (static_cast<std::make_unsigned_t<T>>(value) >> (8 * i)) & 0xFF));
}

std::string openks::runtime::encodeTensorFile(const Tensor &tensor,
                                              const LoD &lod) {
  proto::VarType::TensorDesc descMessage;
  descMessage.set_data_type(getPaddleType(tensor.dtype()));
  for (int64_t dim : tensor.shape())
    descMessage.add_dims(dim);
  std::string desc = descMessage.SerializeAsString();
  size_t dataBytes = tensor.numel() * dtypeSize(tensor.dtype());
  std::string out;
  out.reserve(32 + desc.size() + dataBytes);
  appendInteger<uint32_t>(out, 0);
  appendInteger<uint64_t>(out, lod.size());
  for (const std::vector<uint64_t> &level : lod) {
    appendInteger<uint64_t>(out, level.size() * sizeof(uint64_t));
    for (uint64_t offset : level)
      appendInteger<uint64_t>(out, offset);
  }
  appendInteger<uint32_t>(out, 0);
  appendInteger<int32_t>(out, static_cast<int32_t>(desc.size()));
  out += desc;
  out.append(static_cast<const char *>(tensor.rawData()), dataBytes);
  return out;
}

namespace {

/// Reads a byte string front to back; every failure names the file and
/// what was being read.
class Reader {
public:
  Reader(std::string_view bytes, const std::string &file)
      : bytes_(bytes), file_(file) {}

  size_t left() const { return bytes_.size() - at_; }
  size_t offset() const { return at_; }

  template <typename T> Status read(T &value, const char *what) {
    if (left() < sizeof(T))
      return truncated(what);
    std::make_unsigned_t<T> bits = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
      bits |= static_cast<std::make_unsigned_t<T>>(
                  static_cast<unsigned char>(bytes_[at_ + i]))
              << (8 * i);
    value = static_cast<T>(bits);
    at_ += sizeof(T);
    return Status::ok();
  }

  Status readVarint(uint64_t &value, const char *what) {
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (left() == 0)
        return truncated(what);
      auto byte = static_cast<unsigned char>(bytes_[at_++]);
      value |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if (!(byte & 0x80))
        return Status::ok();
    }
    return damaged("{} is a varint longer than 10 bytes", what);
  }

  Status take(size_t size, std::string_view &out, const char *what) {
    if (left() < size)
      return truncated(what);
    out = bytes_.substr(at_, size);
    at_ += size;
    return Status::ok();
  }

  template <typename... Args>
  Status damaged(fmt::format_string<Args...> format, Args &&...args) const {
    return Status::dataLoss("{}: not a valid tensor file: {}", file_,
                            fmt::format(format, std::forward<Args>(args)...));
  }

  Status truncated(const char *what) const {
    return Status::dataLoss("{}: truncated: the file ends at byte {} in {}",
                            file_, bytes_.size(), what);
  }

private:
  std::string_view bytes_;
  const std::string &file_;
  size_t at_ = 0;
};

} // namespace

/// Walks the wire format of a TensorDesc before protobuf parses it: fails
/// naming the first defect, a field no desc may have, more than kMaxRank
/// dims or a data type Paddle does not have. See the file comment.
static Status checkDesc(std::string_view desc, const std::string &file) {
  Reader reader(desc, file);
  size_t dims = 0;
  std::optional<uint64_t> unknownType;
  while (reader.left() > 0) {
    uint64_t key = 0;
    OPENKS_RETURN_IF_ERROR(reader.readVarint(key, "the tensor desc"));
    uint64_t field = key >> 3, wireType = key & 7, value = 0;
    std::string_view skipped;
    if (field == 0 || field > kMaxFieldNumber)
      return reader.damaged("the tensor desc has an invalid tag {}", key);
    if (field == kDataTypeField && wireType == kVarint) {
      OPENKS_RETURN_IF_ERROR(reader.readVarint(value, "the data type"));
      // Enums are int32 on the wire, negative ones sign-extended to 64
      // bits, so a code outside [0, 2^31) is none of Paddle's.
      if (value > uint64_t(INT32_MAX) ||
          !proto::VarType::Type_IsValid(static_cast<int>(value)))
        unknownType = value;
    } else if (field == kDimsField && wireType == kVarint) {
      OPENKS_RETURN_IF_ERROR(reader.readVarint(value, "the dims"));
      ++dims;
    } else if (field == kDimsField && wireType == kLengthDelimited) {
      OPENKS_RETURN_IF_ERROR(reader.readVarint(value, "the packed dims"));
      std::string_view packed;
      OPENKS_RETURN_IF_ERROR(reader.take(value, packed, "the packed dims"));
      Reader dimsReader(packed, file);
      while (dimsReader.left() > 0) {
        OPENKS_RETURN_IF_ERROR(dimsReader.readVarint(value, "the dims"));
        ++dims;
      }
    } else if (wireType == kVarint) {
      OPENKS_RETURN_IF_ERROR(reader.readVarint(value, "an unknown field"));
    } else if (wireType == kLengthDelimited) {
      OPENKS_RETURN_IF_ERROR(reader.readVarint(value, "an unknown field"));
      OPENKS_RETURN_IF_ERROR(reader.take(value, skipped, "an unknown field"));
    } else if (wireType == kFixed64 || wireType == kFixed32) {
      OPENKS_RETURN_IF_ERROR(reader.take(wireType == kFixed64 ? 8 : 4, skipped,
                                         "an unknown field"));
    } else {
      return reader.damaged("the tensor desc has wire type {} (field {})",
                            wireType, field);
    }
    if (dims > static_cast<size_t>(Shape::kMaxRank))
      return reader.damaged("the tensor desc has more than {} dims",
                            Shape::kMaxRank);
  }
  if (unknownType)
    return reader.damaged("data type {} is none of FP32 (5), FP64 (6) and "
                          "INT64 (3)",
                          *unknownType);
  return Status::ok();
}

StatusOr<TensorFileContents>
openks::runtime::decodeTensorFile(std::string_view bytes,
                                  const std::string &file) {
  Reader reader(bytes, file);
  uint32_t version = 0;
  OPENKS_RETURN_IF_ERROR(reader.read(version, "the version"));
  if (version != 0)
    return reader.damaged("version {}, expected 0", version);
  uint64_t levels = 0;
  OPENKS_RETURN_IF_ERROR(reader.read(levels, "the LoD level count"));
  if (levels > kMaxLoDLevels)
    return reader.damaged("{} LoD levels, at most {} are supported", levels,
                          kMaxLoDLevels);
  TensorFileContents contents;
  for (uint64_t level = 0; level < levels; ++level) {
    uint64_t size = 0;
    OPENKS_RETURN_IF_ERROR(reader.read(size, "a LoD level's size"));
    if (size % sizeof(uint64_t) != 0)
      return reader.damaged("LoD level {} has {} bytes, not whole uint64 "
                            "offsets",
                            level, size);
    if (size > reader.left())
      return reader.truncated("a LoD level");
    std::vector<uint64_t> &offsets = contents.lod.emplace_back(size / 8);
    for (uint64_t &offset : offsets)
      OPENKS_RETURN_IF_ERROR(reader.read(offset, "a LoD level"));
  }
  uint32_t tensorVersion = 0;
  OPENKS_RETURN_IF_ERROR(reader.read(tensorVersion, "the tensor version"));
  if (tensorVersion != 0)
    return reader.damaged("tensor version {}, expected 0", tensorVersion);
  int32_t descSize = 0;
  OPENKS_RETURN_IF_ERROR(reader.read(descSize, "the desc size"));
  if (descSize < 0 || descSize > kMaxDescBytes)
    return reader.damaged("a tensor desc of {} bytes", descSize);
  std::string_view desc;
  OPENKS_RETURN_IF_ERROR(reader.take(descSize, desc, "the tensor desc"));
  OPENKS_RETURN_IF_ERROR(checkDesc(desc, file));
  // Partial: a desc without its required data type gets its own message.
  proto::VarType::TensorDesc descMessage;
  if (!descMessage.ParsePartialFromArray(desc.data(),
                                         static_cast<int>(desc.size())))
    return reader.damaged("the tensor desc does not parse as a "
                          "VarType.TensorDesc");
  if (!descMessage.has_data_type())
    return reader.damaged("the tensor desc has no data type");
  std::optional<DType> dtype = getDType(descMessage.data_type());
  if (!dtype)
    return reader.damaged("data type {} is none of FP32 (5), FP64 (6) and "
                          "INT64 (3)",
                          static_cast<int>(descMessage.data_type()));
  std::vector<int64_t> dims(descMessage.dims().begin(),
                            descMessage.dims().end());
  int64_t numel = 1;
  for (int64_t dim : dims) {
    if (dim < 0 || (dim > 0 && numel > kMaxTensorElements / dim))
      return reader.damaged("the shape [{}] is not one the runtime can hold",
                            fmt::join(dims, ", "));
    numel *= dim;
  }
  size_t dataBytes = static_cast<size_t>(numel) * dtypeSize(*dtype);
  if (reader.left() < dataBytes)
    return Status::dataLoss("{}: truncated: {} bytes of data for a {} "
                            "tensor of shape [{}] need {}",
                            file, reader.left(), dtypeName(*dtype),
                            fmt::join(dims, ", "), dataBytes);
  if (reader.left() > dataBytes)
    return reader.damaged("{} bytes follow the {} bytes of data",
                          reader.left() - dataBytes, dataBytes);
  StatusOr<Tensor> tensor = Tensor::allocate(
      *dtype, Shape(dims.data(), static_cast<int>(dims.size())));
  if (!tensor)
    return tensor.status().withContext(file);
  std::string_view data;
  OPENKS_RETURN_IF_ERROR(reader.take(dataBytes, data, "the data"));
  if (dataBytes > 0)
    std::memcpy(tensor->rawData(), data.data(), dataBytes);
  contents.tensor = std::move(*tensor);
  return contents;
}
