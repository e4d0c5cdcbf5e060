//===- Tensor.h - Dense runtime tensors -------------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A dense, row-major tensor of f32, f64 or i64 that owns a 64-byte aligned
// buffer. The buffer's capacity is set once (by the plan builder, for the
// largest batch); reshaping within the capacity never allocates, so a step in
// steady state performs no allocation. A tensor may instead view a range of
// rows of another tensor's buffer (rows of a row-major tensor are
// contiguous), which lets a received block land straight in its parameter.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_TENSOR_H
#define OPENKS_RUNTIME_TENSOR_H

#include "openks/Support/Limits.h"
#include "openks/Support/Status.h"

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>

namespace openks::runtime {

/// Element types of runtime tensors.
enum class DType : uint8_t { F32, F64, I64 };

/// Returns the size in bytes of one element of `dtype`.
size_t dtypeSize(DType dtype);

/// Returns the MLIR spelling of `dtype` ("f32", "f64", "i64").
const char *dtypeName(DType dtype);

/// Maps a C++ element type to its DType.
template <typename T> constexpr DType dtypeOf();
template <> constexpr DType dtypeOf<float>() { return DType::F32; }
template <> constexpr DType dtypeOf<double>() { return DType::F64; }
template <> constexpr DType dtypeOf<int64_t>() { return DType::I64; }

/// A tensor shape of rank at most kMaxRank, stored inline. The dialect
/// verifiers enforce the same bound (openks/Support/Limits.h), so no loaded
/// program makes a larger one; kernels that add a dimension check it.
class Shape {
public:
  /// The largest supported rank.
  static constexpr int kMaxRank = kMaxTensorRank;

  Shape() = default;
  Shape(std::initializer_list<int64_t> dims);
  /// Builds a shape from `rank` sizes at `dims`.
  Shape(const int64_t *dims, int rank);

  int rank() const { return rank_; }
  int64_t operator[](int i) const {
    assert(i >= 0 && i < rank_ && "dimension out of range");
    return dims_[i];
  }
  int64_t &operator[](int i) {
    assert(i >= 0 && i < rank_ && "dimension out of range");
    return dims_[i];
  }
  const int64_t *begin() const { return dims_.data(); }
  const int64_t *end() const { return dims_.data() + rank_; }

  /// Returns the number of elements (1 for rank 0).
  int64_t numel() const;
  /// Returns the product of the dimensions after the first (the row width).
  int64_t rowWidth() const;
  /// Appends a dimension.
  void push_back(int64_t size);

  bool operator==(const Shape &other) const;
  bool operator!=(const Shape &other) const { return !(*this == other); }

  /// Returns "[2, 3]".
  std::string str() const;

private:
  std::array<int64_t, kMaxRank> dims_{};
  int rank_ = 0;
};

/// A dense row-major tensor owning an aligned buffer.
class Tensor {
public:
  Tensor() = default;
  /// Allocates a tensor of `shape`, zero-filled, with exactly its capacity.
  Tensor(DType dtype, const Shape &shape);

  Tensor(Tensor &&) = default;
  Tensor &operator=(Tensor &&) = default;
  Tensor(const Tensor &) = delete;
  Tensor &operator=(const Tensor &) = delete;

  DType dtype() const { return dtype_; }
  const Shape &shape() const { return shape_; }
  int rank() const { return shape_.rank(); }
  int64_t dim(int i) const { return shape_[i]; }
  int64_t numel() const { return shape_.numel(); }
  /// Returns the number of elements the buffer holds without reallocation.
  int64_t capacity() const { return capacity_; }

  /// Returns a tensor over rows [firstRow, firstRow + rows) of `base`, which
  /// must have rank 1 or more: the view does not own its buffer, so `base`
  /// must outlive it and keep its buffer. Writes through the view are writes
  /// to `base`, as long as the view stays within its capacity (its rows);
  /// growing past it gives the view a buffer of its own, which ownsBuffer()
  /// tells. The view is aligned only as well as its first row happens to be.
  static Tensor viewRows(Tensor &base, int64_t firstRow, int64_t rows);
  /// Returns whether the tensor owns its buffer (is not a view, or has grown
  /// out of one).
  bool ownsBuffer() const { return buffer_.get_deleter().owned; }

  /// Returns a zero-filled tensor of `shape`, or a ResourceExhausted error
  /// naming the bytes when the memory cannot be had. Loaders allocate
  /// parameters and buffers this way, so a program too large for the
  /// machine is an error, not an abort.
  static StatusOr<Tensor> allocate(DType dtype, const Shape &shape);

  /// Sets the shape. Within the capacity this never allocates; beyond it the
  /// buffer grows (and its contents are not kept). The same shape writes
  /// nothing.
  void resize(const Shape &shape);
  /// Grows the capacity to at least `numel` elements (contents not kept), or
  /// fails with ResourceExhausted.
  Status tryReserve(int64_t numel);
  /// tryReserve, for growth within kernels, whose buffers the loader sized:
  /// a failure there ends the process with a message.
  void reserve(int64_t numel);
  /// Sets every element to zero.
  void setZero();
  /// Copies shape and contents of `other`, which must have the same dtype.
  /// A tensor that views `other`'s buffer from its start (a trainer's
  /// parameter held in its server's block) copies nothing.
  void copyFrom(const Tensor &other);

  /// Returns the elements as `T`, which must match the dtype.
  template <typename T> T *data() {
    assert(dtypeOf<T>() == dtype_ && "element type mismatch");
    return reinterpret_cast<T *>(buffer_.get());
  }
  template <typename T> const T *data() const {
    assert(dtypeOf<T>() == dtype_ && "element type mismatch");
    return reinterpret_cast<const T *>(buffer_.get());
  }
  void *rawData() { return buffer_.get(); }
  const void *rawData() const { return buffer_.get(); }

  /// Returns "tensor<2x3xf32>".
  std::string typeString() const;

private:
  /// Frees the buffers a tensor allocated, and leaves views' alone.
  struct AlignedFree {
    AlignedFree() : owned(true) {}
    explicit AlignedFree(bool owned) : owned(owned) {}
    void operator()(std::byte *pointer) const;

    bool owned;
  };

  using Buffer = std::unique_ptr<std::byte, AlignedFree>;

  DType dtype_ = DType::F32;
  Shape shape_;
  int64_t capacity_ = 0;
  Buffer buffer_;
};

/// Returns "tensor<2x3xf32>" for a tensor of `dtype` and `shape`.
std::string typeString(DType dtype, const Shape &shape);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_TENSOR_H
