//===- TensorFileTest.cpp - Tests of Paddle's tensor file format ----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks the reader and writer against byte images built by hand from the
// format (fleet-semantics.md section 4.12): the header, LoD levels, the
// TensorDesc protobuf (non-packed and packed dims) and the data; and that
// every damaged, truncated or overlong image is refused naming the file.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/TensorFile.h"

#include "gtest/gtest.h"

#include <string>

using namespace openks;
using namespace openks::runtime;

namespace {

/// Returns a string of the given byte values.
std::string bytes(std::initializer_list<int> values) {
  std::string out;
  for (int value : values)
    out.push_back(static_cast<char>(value));
  return out;
}

/// The image of an f32 [2, 3] tensor holding 1..6 with the LoD {{0, 2}}.
std::string f32Image() {
  // clang-format off
  return bytes({0, 0, 0, 0,                    // version
                1, 0, 0, 0, 0, 0, 0, 0,        // one LoD level
                16, 0, 0, 0, 0, 0, 0, 0,       // of 16 bytes
                0, 0, 0, 0, 0, 0, 0, 0,        // offset 0
                2, 0, 0, 0, 0, 0, 0, 0,        // offset 2
                0, 0, 0, 0,                    // tensor version
                6, 0, 0, 0,                    // desc size
                0x08, 5, 0x10, 2, 0x10, 3,     // FP32, dims 2 and 3
                0, 0, 0x80, 0x3F, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40, //
                0, 0, 0x80, 0x40, 0, 0, 0xA0, 0x40, 0, 0, 0xC0, 0x40});
  // clang-format on
}

TEST(TensorFileTest, WritesTheFormatByteForByte) {
  Tensor tensor(DType::F32, Shape{2, 3});
  for (int i = 0; i < 6; ++i)
    tensor.data<float>()[i] = static_cast<float>(i + 1);
  EXPECT_EQ(encodeTensorFile(tensor, {{0, 2}}), f32Image());
}

TEST(TensorFileTest, ReadsTheFormat) {
  StatusOr<TensorFileContents> read = decodeTensorFile(f32Image(), "w");
  ASSERT_TRUE(read.isOk()) << read.status().message();
  ASSERT_EQ(read->tensor.dtype(), DType::F32);
  ASSERT_EQ(read->tensor.shape(), (Shape{2, 3}));
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(read->tensor.data<float>()[i], i + 1);
  EXPECT_EQ(read->lod, (LoD{{0, 2}}));
}

TEST(TensorFileTest, ReadsPackedDimsAndSkipsUnknownFields) {
  // An f64 [1] tensor; dims packed, an unknown varint field 7 first.
  // clang-format off
  std::string image = bytes({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, //
                             0, 0, 0, 0, 7, 0, 0, 0,             //
                             0x38, 1, 0x08, 6, 0x12, 1, 1,       //
                             0, 0, 0, 0, 0, 0, 0xF0, 0x3F});     // 1.0
  // clang-format on
  StatusOr<TensorFileContents> read = decodeTensorFile(image, "v");
  ASSERT_TRUE(read.isOk()) << read.status().message();
  EXPECT_EQ(read->tensor.dtype(), DType::F64);
  EXPECT_EQ(read->tensor.shape(), (Shape{1}));
  EXPECT_EQ(read->tensor.data<double>()[0], 1.0);
}

TEST(TensorFileTest, RoundTripsI64AndScalars) {
  Tensor ids(DType::I64, Shape{3});
  ids.data<int64_t>()[0] = -1;
  ids.data<int64_t>()[1] = int64_t(1) << 40;
  ids.data<int64_t>()[2] = 7;
  StatusOr<TensorFileContents> read =
      decodeTensorFile(encodeTensorFile(ids), "ids");
  ASSERT_TRUE(read.isOk()) << read.status().message();
  ASSERT_EQ(read->tensor.shape(), (Shape{3}));
  EXPECT_EQ(read->tensor.data<int64_t>()[1], int64_t(1) << 40);
  EXPECT_EQ(read->tensor.data<int64_t>()[0], -1);

  Tensor scalar(DType::I64, Shape{});
  scalar.data<int64_t>()[0] = 42;
  std::string image = encodeTensorFile(scalar);
  // A rank-0 desc is the type alone: 08 03.
  EXPECT_EQ(image.substr(16, 6), bytes({2, 0, 0, 0, 0x08, 3}));
  read = decodeTensorFile(image, "step");
  ASSERT_TRUE(read.isOk()) << read.status().message();
  EXPECT_EQ(read->tensor.rank(), 0);
  EXPECT_EQ(read->tensor.data<int64_t>()[0], 42);
}

/// Expects `image` to be refused with a DataLoss error naming the file and
/// containing `what`.
void expectRefused(const std::string &image, const std::string &what) {
  StatusOr<TensorFileContents> read = decodeTensorFile(image, "dir/fc.w");
  ASSERT_FALSE(read.isOk()) << "accepted an image expected to hold " << what;
  EXPECT_EQ(read.status().code(), StatusCode::DataLoss);
  const std::string &message = read.status().message();
  EXPECT_EQ(message.rfind("dir/fc.w: ", 0), 0u) << message;
  EXPECT_NE(message.find(what), std::string::npos) << message;
}

TEST(TensorFileTest, RefusesEveryTruncation) {
  std::string image = f32Image();
  for (size_t size = 0; size < image.size(); ++size)
    expectRefused(image.substr(0, size), "truncated");
}

TEST(TensorFileTest, RefusesDamage) {
  std::string image = f32Image();
  expectRefused(image + "x", "1 bytes follow the 24 bytes of data");
  std::string version = image;
  version[0] = 1;
  expectRefused(version, "version 1, expected 0");
  std::string tensorVersion = image;
  tensorVersion[36] = 2;
  expectRefused(tensorVersion, "tensor version 2");
  std::string fp16 = image;
  fp16[45] = 4;
  expectRefused(fp16, "data type 4");
  std::string oddLoD = image;
  oddLoD[12] = 15;
  expectRefused(oddLoD, "not whole uint64 offsets");
  std::string hugeDesc = image;
  hugeDesc[43] = 0x7F;
  expectRefused(hugeDesc, "a tensor desc of");
  // dims -1 (unknown), as a ten-byte varint.
  // clang-format off
  std::string unknownDim = bytes({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, //
                                  0, 0, 0, 0, 13, 0, 0, 0, 0x08, 5, 0x10,
                                  0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                  0xFF, 0xFF, 0x01});
  // clang-format on
  expectRefused(unknownDim, "the shape [-1]");
  std::string noType = bytes({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, //
                              0, 0, 0, 0, 2, 0, 0, 0, 0x10, 1, 0, 0, 0, 0});
  expectRefused(noType, "no data type");
}

/// The image of a tensor file without LoD holding `desc` and `data`.
std::string descImage(const std::string &desc, const std::string &data) {
  std::string image(16, '\0'); // version, no LoD, tensor version
  for (int i = 0; i < 4; ++i)
    image.push_back(static_cast<char>((desc.size() >> (8 * i)) & 0xFF));
  return image + desc + data;
}

TEST(TensorFileTest, WritesPaddlesTensorDescBytes) {
  // The desc protobuf writes for VarType.TensorDesc{FP32, [2, 3]}: the
  // type, then each dim in its own field.
  Tensor f32(DType::F32, Shape{2, 3});
  EXPECT_EQ(encodeTensorFile(f32), descImage(bytes({0x08, 5, 0x10, 2, 0x10, 3}),
                                             std::string(24, '\0')));
  // Dims of more than seven bits take more varint bytes; a zero dim is
  // written, not left out.
  Tensor f64(DType::F64, Shape{300, 0, 128});
  EXPECT_EQ(encodeTensorFile(f64), descImage(bytes({0x08, 6, 0x10, 0xAC, 0x02,
                                                    0x10, 0, 0x10, 0x80, 0x01}),
                                             ""));
  Tensor i64(DType::I64, Shape{1});
  i64.data<int64_t>()[0] = 7;
  EXPECT_EQ(encodeTensorFile(i64), descImage(bytes({0x08, 3, 0x10, 1}),
                                             bytes({7, 0, 0, 0, 0, 0, 0, 0})));
}

TEST(TensorFileTest, SkipsUnknownFieldsOfEveryWireType) {
  // clang-format off
  std::string desc = bytes({0x38, 0x96, 0x01,                  // 7: varint
                            0x41, 1, 2, 3, 4, 5, 6, 7, 8,      // 8: fixed64
                            0x4A, 2, 'a', 'b',                 // 9: bytes
                            0x55, 1, 2, 3, 4,                  // 10: fixed32
                            0x0A, 0,                           // 1 as bytes
                            0x08, 5, 0x10, 1});                // FP32 [1]
  // clang-format on
  StatusOr<TensorFileContents> read =
      decodeTensorFile(descImage(desc, bytes({0, 0, 0x80, 0x3F})), "u");
  ASSERT_TRUE(read.isOk()) << read.status().message();
  EXPECT_EQ(read->tensor.dtype(), DType::F32);
  EXPECT_EQ(read->tensor.shape(), (Shape{1}));
  EXPECT_EQ(read->tensor.data<float>()[0], 1.0f);
}

TEST(TensorFileTest, TakesTheLastDataType) {
  // FP16, then FP32: the last counts, as in protobuf.
  StatusOr<TensorFileContents> read = decodeTensorFile(
      descImage(bytes({0x08, 4, 0x08, 5}), bytes({0, 0, 0x80, 0x3F})), "t");
  ASSERT_TRUE(read.isOk()) << read.status().message();
  EXPECT_EQ(read->tensor.dtype(), DType::F32);
  EXPECT_EQ(read->tensor.rank(), 0);
}

TEST(TensorFileTest, RefusesTypeCodesTheRuntimeDoesNotHave) {
  const std::string none = " is none of FP32 (5), FP64 (6) and INT64 (3)";
  // FP16 and BOOL: Paddle's, not the runtime's.
  expectRefused(descImage(bytes({0x08, 4}), ""), "data type 4" + none);
  expectRefused(descImage(bytes({0x08, 0}), ""), "data type 0" + none);
  // Not Paddle's: 99, 5 + 2^32 (protobuf would cut it to 5) and -1.
  expectRefused(descImage(bytes({0x08, 99}), ""), "data type 99" + none);
  expectRefused(descImage(bytes({0x08, 0x85, 0x80, 0x80, 0x80, 0x10}), ""),
                "data type 4294967301" + none);
  expectRefused(descImage(bytes({0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                 0xFF, 0xFF, 0x01}),
                          ""),
                "data type 18446744073709551615" + none);
  // An unknown code is refused wherever it comes.
  expectRefused(descImage(bytes({0x08, 5, 0x08, 99}), ""),
                "data type 99" + none);
  expectRefused(descImage(bytes({0x08, 99, 0x08, 5}), bytes({0, 0, 0, 0})),
                "data type 99" + none);
}

TEST(TensorFileTest, RefusesMoreDimsThanTheRuntimeHolds) {
  const std::string tooMany = "the tensor desc has more than " +
                              std::to_string(Shape::kMaxRank) + " dims";
  std::string unpacked = bytes({0x08, 5});
  std::string packed = bytes({0x08, 5, 0x12, Shape::kMaxRank + 1});
  for (int i = 0; i <= Shape::kMaxRank; ++i) {
    unpacked += bytes({0x10, 1});
    packed += bytes({1});
  }
  expectRefused(descImage(unpacked, bytes({0, 0, 0, 0})), tooMany);
  expectRefused(descImage(packed, bytes({0, 0, 0, 0})), tooMany);
}

TEST(TensorFileTest, RefusesMalformedDescs) {
  // Groups and wire types 6 and 7 are no field's.
  expectRefused(descImage(bytes({0x08, 5, 0x1B, 0x1C}), ""),
                "the tensor desc has wire type 3 (field 3)");
  expectRefused(descImage(bytes({0x08, 5, 0x1C}), ""),
                "the tensor desc has wire type 4 (field 3)");
  expectRefused(descImage(bytes({0x08, 5, 0x3F, 0}), ""),
                "the tensor desc has wire type 7 (field 7)");
  // Field numbers 0 and 2^29.
  expectRefused(descImage(bytes({0x00, 0, 0x08, 5}), ""),
                "the tensor desc has an invalid tag 0");
  expectRefused(
      descImage(bytes({0x80, 0x80, 0x80, 0x80, 0x10, 0, 0x08, 5}), ""),
      "the tensor desc has an invalid tag 4294967296");
  // Varints that do not end within 10 bytes or within the desc.
  expectRefused(descImage(bytes({0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                 0xFF, 0xFF, 0xFF, 0x01}),
                          ""),
                "the data type is a varint longer than 10 bytes");
  expectRefused(descImage(bytes({0x08, 5, 0x10}), ""),
                "truncated: the file ends at byte 3 in the dims");
  expectRefused(descImage(bytes({0x08, 5, 0x12, 3, 1, 1}), ""),
                "truncated: the file ends at byte 6 in the packed dims");
  expectRefused(descImage(bytes({0x08, 5, 0x12, 2, 1, 0x81}), ""),
                "truncated: the file ends at byte 2 in the dims");
  expectRefused(descImage(bytes({0x08, 5, 0x41, 1, 2}), ""),
                "truncated: the file ends at byte 5 in an unknown field");
  // The required data type missing, dims alone.
  expectRefused(descImage(bytes({0x10, 1}), bytes({0, 0, 0, 0})),
                "the tensor desc has no data type");
}

TEST(TensorFileTest, RefusesWhatItCannotHold) {
  std::string levels = f32Image();
  levels[4] = 65;
  expectRefused(levels, "65 LoD levels, at most 64 are supported");
  std::string hugeDesc = f32Image();
  hugeDesc[40] = 0x01; // 4097 bytes
  hugeDesc[41] = 0x10;
  expectRefused(hugeDesc, "a tensor desc of 4097 bytes");
  // 2^40 x 2^40 elements overflow the element count.
  expectRefused(
      descImage(bytes({0x08, 5, 0x10, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0x10,
                       0x80, 0x80, 0x80, 0x80, 0x80, 0x20}),
                ""),
      "the shape [1099511627776, 1099511627776] is not one the "
      "runtime can hold");
}

} // namespace
