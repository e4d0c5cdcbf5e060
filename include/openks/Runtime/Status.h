//===- Status.h - Runtime error reporting -----------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// The runtime core reports errors that depend on data (a label outside the
// classes, an id outside a table, a malformed input row) as values, never as
// crashes. Status is cheap on success: an empty string.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_STATUS_H
#define OPENKS_RUNTIME_STATUS_H

#include <fmt/format.h>
#include <string>
#include <utility>

namespace openks::runtime {

/// Success, or an error with a message for the user.
class [[nodiscard]] Status {
public:
  /// Returns success.
  static Status ok() { return Status(); }

  /// Returns an error whose message is formatted by fmt.
  template <typename... Args>
  static Status error(fmt::format_string<Args...> format, Args &&...args) {
    Status status;
    status.message_ = fmt::format(format, std::forward<Args>(args)...);
    if (status.message_.empty())
      status.message_ = "unknown error";
    return status;
  }

  /// Returns whether this is success.
  bool isOk() const { return message_.empty(); }
  explicit operator bool() const { return isOk(); }

  /// Returns the error message (empty on success).
  const std::string &message() const { return message_; }

  /// Returns this error with `context` and ": " put in front.
  Status withContext(const std::string &context) const {
    if (isOk())
      return *this;
    Status status;
    status.message_ = context + ": " + message_;
    return status;
  }

private:
  std::string message_;
};

/// Returns from the enclosing function if `expr` is an error.
#define OPENKS_RETURN_IF_ERROR(expr)                                           \
  do {                                                                         \
    ::openks::runtime::Status openksStatus_ = (expr);                          \
    if (!openksStatus_.isOk())                                                 \
      return openksStatus_;                                                    \
  } while (false)

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_STATUS_H
