//===- Status.h - Errors as values ------------------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime core and the code it shares with the compiler report errors
// that depend on data or on peers (a label outside the classes, a malformed
// row, a server that does not answer in time) as values, never as crashes.
// A Status is a code, which callers branch on, and a message for the user;
// success costs an empty string.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_SUPPORT_STATUS_H
#define OPENKS_SUPPORT_STATUS_H

#include <cassert>
#include <cstdint>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <utility>

namespace openks {

/// What kind of error a Status is; callers branch on it (retry, report a
/// peer, give up).
enum class StatusCode : uint8_t {
  Ok,
  /// The input is malformed or inconsistent (a shape, an option, a row).
  InvalidArgument,
  /// A value lies outside its valid range (a label, an id, a size).
  OutOfRange,
  /// A file or a named object does not exist.
  NotFound,
  /// Stored data is damaged or truncated.
  DataLoss,
  /// Memory or another resource cannot be had.
  ResourceExhausted,
  /// Reading or writing a file or a device failed.
  IOError,
  /// The call came in the wrong state (out of order, twice, too early).
  FailedPrecondition,
  /// A wait ran past its deadline.
  DeadlineExceeded,
  /// A peer (server or trainer) stopped or failed.
  PeerLost,
  /// The operation was stopped on purpose (another role failed).
  Cancelled,
  /// A broken invariant of this program.
  Internal,
};

/// Returns the code's name ("invalid argument", "deadline exceeded", ...).
const char *statusCodeName(StatusCode code);

/// Success, or an error code with a message for the user.
class [[nodiscard]] Status {
public:
  /// A default-constructed Status is success.
  Status() = default;

  /// Returns success.
  static Status ok() { return Status(); }

  /// Returns an error of `code` whose message is formatted by fmt.
  template <typename... Args>
  static Status error(StatusCode code, fmt::format_string<Args...> format,
                      Args &&...args) {
    assert(code != StatusCode::Ok && "an error needs an error code");
    return Status(code, fmt::format(format, std::forward<Args>(args)...));
  }

  /// Shorthands for error() with a code.
  template <typename... Args>
  static Status invalidArgument(fmt::format_string<Args...> format,
                                Args &&...args) {
    return error(StatusCode::InvalidArgument, format,
                 std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status outOfRange(fmt::format_string<Args...> format, Args &&...args) {
    return error(StatusCode::OutOfRange, format, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status notFound(fmt::format_string<Args...> format, Args &&...args) {
    return error(StatusCode::NotFound, format, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status dataLoss(fmt::format_string<Args...> format, Args &&...args) {
    return error(StatusCode::DataLoss, format, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status internal(fmt::format_string<Args...> format, Args &&...args) {
    return error(StatusCode::Internal, format, std::forward<Args>(args)...);
  }

  /// Returns whether this is success.
  bool isOk() const { return code_ == StatusCode::Ok; }
  explicit operator bool() const { return isOk(); }

  /// Returns the error code (Ok on success).
  StatusCode code() const { return code_; }
  /// Returns the error message (empty on success).
  const std::string &message() const { return message_; }

  /// Returns this error with `context` and ": " put in front of its
  /// message; success stays success.
  Status withContext(const std::string &context) const {
    if (isOk())
      return *this;
    return Status(code_, context + ": " + message_);
  }

private:
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {
    if (message_.empty())
      message_ = statusCodeName(code_);
  }

  StatusCode code_ = StatusCode::Ok;
  std::string message_;
};

/// A value of type T, or the error that kept it from being made.
template <typename T> class [[nodiscard]] StatusOr {
public:
  StatusOr(T value) : value_(std::move(value)) {}
  StatusOr(Status status) : status_(std::move(status)) {
    assert(!status_.isOk() && "a StatusOr without a value needs an error");
  }

  /// Returns whether a value is present.
  bool isOk() const { return status_.isOk(); }
  explicit operator bool() const { return isOk(); }
  /// Returns the error (success when a value is present).
  const Status &status() const { return status_; }

  T &operator*() {
    assert(isOk() && "no value");
    return *value_;
  }
  const T &operator*() const {
    assert(isOk() && "no value");
    return *value_;
  }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }

private:
  Status status_ = Status::ok();
  std::optional<T> value_;
};

/// Returns from the enclosing function if `expr` is an error.
#define OPENKS_RETURN_IF_ERROR(expr)                                           \
  do {                                                                         \
    ::openks::Status openksStatus_ = (expr);                                   \
    if (!openksStatus_.isOk())                                                 \
      return openksStatus_;                                                    \
  } while (false)

} // namespace openks

#endif // OPENKS_SUPPORT_STATUS_H
