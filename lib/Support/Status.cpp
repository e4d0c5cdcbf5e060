//===- Status.cpp - Errors as values --------------------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Support/Status.h"

const char *openks::statusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::Ok:
    return "ok";
  case StatusCode::InvalidArgument:
    return "invalid argument";
  case StatusCode::OutOfRange:
    return "out of range";
  case StatusCode::NotFound:
    return "not found";
  case StatusCode::DataLoss:
    return "data loss";
  case StatusCode::ResourceExhausted:
    return "resource exhausted";
  case StatusCode::IOError:
    return "I/O error";
  case StatusCode::FailedPrecondition:
    return "failed precondition";
  case StatusCode::DeadlineExceeded:
    return "deadline exceeded";
  case StatusCode::PeerLost:
    return "peer lost";
  case StatusCode::Cancelled:
    return "cancelled";
  case StatusCode::Internal:
    return "internal error";
  }
  return "unknown error";
}
