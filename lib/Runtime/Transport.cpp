//===- Transport.cpp - How trainers talk to parameter servers -------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Transport.h"

using namespace openks::runtime;

Transport::~Transport() = default;

const char *openks::runtime::describeMessageKind(MessageKind kind) {
  switch (kind) {
  case MessageKind::Grad:
    return "gradient";
  case MessageKind::Delta:
    return "delta";
  case MessageKind::Param:
    return "parameter";
  }
  return "message";
}
