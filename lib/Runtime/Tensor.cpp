//===- Tensor.cpp - Dense runtime tensors ---------------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Tensor.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>

using namespace openks;
using namespace openks::runtime;

size_t openks::runtime::dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return 4;
  case DType::F64:
  case DType::I64:
    return 8;
  }
  return 0;
}

const char *openks::runtime::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::I64:
    return "i64";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Shape
//===----------------------------------------------------------------------===//

Shape::Shape(std::initializer_list<int64_t> dims) {
  for (int64_t size : dims)
    push_back(size);
}

Shape::Shape(const int64_t *dims, int rank) {
  for (int i = 0; i < rank; ++i)
    push_back(dims[i]);
}

int64_t Shape::numel() const {
  int64_t product = 1;
  for (int64_t size : *this)
    product *= size;
  return product;
}

int64_t Shape::rowWidth() const {
  int64_t product = 1;
  for (int i = 1; i < rank_; ++i)
    product *= dims_[i];
  return product;
}

void Shape::push_back(int64_t size) {
  assert(rank_ < kMaxRank && "rank exceeds Shape::kMaxRank");
  dims_[rank_++] = size;
}

bool Shape::operator==(const Shape &other) const {
  if (rank_ != other.rank_)
    return false;
  for (int i = 0; i < rank_; ++i)
    if (dims_[i] != other.dims_[i])
      return false;
  return true;
}

std::string Shape::str() const {
  return fmt::format("[{}]", fmt::join(begin(), end(), ", "));
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

/// Buffers are aligned for the widest vector loads Eigen issues.
static constexpr size_t kAlignment = 64;

void Tensor::AlignedFree::operator()(std::byte *pointer) const {
  if (owned)
    std::free(pointer);
}

Tensor::Tensor(DType dtype, const Shape &shape) : dtype_(dtype) {
  reserve(shape.numel());
  shape_ = shape;
  setZero();
}

Tensor Tensor::viewRows(Tensor &base, int64_t firstRow, int64_t rows) {
  assert(base.rank() >= 1 && firstRow >= 0 && rows >= 0 &&
         firstRow + rows <= base.dim(0) && "rows outside the base tensor");
  Tensor view;
  view.dtype_ = base.dtype_;
  view.shape_ = base.shape_;
  view.shape_[0] = rows;
  view.capacity_ = view.shape_.numel();
  std::byte *first = base.buffer_.get() +
                     firstRow * base.shape_.rowWidth() * dtypeSize(base.dtype_);
  view.buffer_ = Buffer(first, AlignedFree{/*owned=*/false});
  return view;
}

StatusOr<Tensor> Tensor::allocate(DType dtype, const Shape &shape) {
  Tensor tensor;
  tensor.dtype_ = dtype;
  OPENKS_RETURN_IF_ERROR(tensor.tryReserve(shape.numel()));
  tensor.shape_ = shape;
  tensor.setZero();
  return tensor;
}

Status Tensor::tryReserve(int64_t numel) {
  if (numel <= capacity_ && buffer_)
    return Status::ok();
  std::optional<int64_t> bytes = checkedMul(
      std::max<int64_t>(numel, 1), static_cast<int64_t>(dtypeSize(dtype_)));
  // Whole alignment units; a count past the element bound is refused
  // before it can overflow.
  if (!bytes || numel > kMaxTensorElements)
    return Status::error(StatusCode::ResourceExhausted,
                         "cannot allocate {} elements of {}: more than the "
                         "{} a tensor may hold",
                         numel, dtypeName(dtype_), kMaxTensorElements);
  size_t size =
      (static_cast<size_t>(*bytes) + kAlignment - 1) / kAlignment * kAlignment;
  void *pointer = std::aligned_alloc(kAlignment, size);
  if (!pointer)
    return Status::error(StatusCode::ResourceExhausted,
                         "out of memory allocating {} bytes for {} elements "
                         "of {}",
                         size, numel, dtypeName(dtype_));
  buffer_ = Buffer(static_cast<std::byte *>(pointer), AlignedFree{});
  capacity_ = numel;
  return Status::ok();
}

void Tensor::reserve(int64_t numel) {
  if (Status status = tryReserve(numel); !status.isOk()) {
    fmt::print(stderr, "openks: {}\n", status.message());
    std::abort();
  }
}

void Tensor::resize(const Shape &shape) {
  // Writing the same shape is skipped: a parameter's value is resized by
  // every write, while other threads read its shape.
  if (shape == shape_ && capacity_ >= shape.numel())
    return;
  reserve(shape.numel());
  shape_ = shape;
}

void Tensor::setZero() {
  std::memset(buffer_.get(), 0, numel() * dtypeSize(dtype_));
}

void Tensor::copyFrom(const Tensor &other) {
  assert(other.dtype_ == dtype_ && "copy between element types");
  resize(other.shape_);
  if (buffer_.get() != other.buffer_.get())
    std::memcpy(buffer_.get(), other.buffer_.get(),
                numel() * dtypeSize(dtype_));
}

std::string Tensor::typeString() const {
  return runtime::typeString(dtype_, shape_);
}

std::string openks::runtime::typeString(DType dtype, const Shape &shape) {
  std::string dims;
  for (int64_t size : shape)
    dims += fmt::format("{}x", size);
  return fmt::format("tensor<{}{}>", dims, dtypeName(dtype));
}
