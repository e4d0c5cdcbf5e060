//===- Cluster.cpp - Where the roles of a job meet ------------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Cluster.h"

using namespace openks::runtime;

Cluster::~Cluster() = default;
