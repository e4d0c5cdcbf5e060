//===- RoleMakerFromEnvironment.cpp - The role maker a scheduler calls for ===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Picks the role maker for the scheduler that started this process, so that
// one binary runs under PaddleCloud-style launchers, Kubeflow and Slurm.
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/PaddleCloudRoleMaker.h"
#include "openks/Fleet/RoleMaker.h"
#include "openks/Fleet/SlurmRoleMaker.h"
#include "openks/Fleet/TFConfigRoleMaker.h"

using namespace openks;
using namespace openks::fleet;

namespace {
/// A source of roles, named as OPENKS_ROLE_MAKER names it, and the
/// variables that show it is present (unused slots are null).
struct Source {
  const char *name;
  const char *variables[3];
  std::unique_ptr<RoleMaker> (*create)(const Environment &);
};
} // namespace

static const Source kSources[] = {
    {"paddlecloud",
     {"TRAINING_ROLE", "PADDLE_TRAINING_ROLE", "PADDLE_PSERVERS_IP_PORT_LIST"},
     [](const Environment &environment) -> std::unique_ptr<RoleMaker> {
       return std::make_unique<PaddleCloudRoleMaker>(environment);
     }},
    {"tfconfig",
     {"TF_CONFIG", nullptr, nullptr},
     [](const Environment &environment) -> std::unique_ptr<RoleMaker> {
       return std::make_unique<TFConfigRoleMaker>(environment);
     }},
    {"slurm",
     // SLURM_JOB_ID alone is a batch script or salloc's shell, which the
     // Slurm role maker refuses with a hint to use srun.
     {"SLURM_PROCID", "SLURM_JOB_ID", nullptr},
     [](const Environment &environment) -> std::unique_ptr<RoleMaker> {
       return std::make_unique<SlurmRoleMaker>(environment);
     }},
};

/// Returns the variables of `source` that are set in `environment`, comma
/// separated, or "" when none is.
static std::string evidence(const Source &source,
                            const Environment &environment) {
  std::string found;
  for (const char *variable : source.variables)
    if (variable && environment.has(variable))
      found += (found.empty() ? "" : ", ") + std::string(variable);
  return found;
}

StatusOr<std::unique_ptr<RoleMaker>>
fleet::createRoleMakerFromEnvironment(const Environment &environment) {
  if (std::optional<std::string> chosen =
          environment.get("OPENKS_ROLE_MAKER")) {
    for (const Source &source : kSources)
      if (*chosen == source.name)
        return source.create(environment);
    return Status::invalidArgument(
        "environment variable OPENKS_ROLE_MAKER is '{}'; expected "
        "paddlecloud, tfconfig or slurm",
        *chosen);
  }
  std::vector<const Source *> present;
  std::string found;
  for (const Source &source : kSources)
    if (std::string variables = evidence(source, environment);
        !variables.empty()) {
      present.push_back(&source);
      found += fmt::format("{}{} ({})", found.empty() ? "" : ", ", source.name,
                           variables);
    }
  if (present.empty())
    return Status::notFound(
        "no cluster environment found: set TRAINING_ROLE and the other "
        "PaddleCloud variables, TF_CONFIG, or run under Slurm's srun "
        "(SLURM_PROCID); or use a UserDefinedRoleMaker");
  if (present.size() > 1)
    return Status::invalidArgument(
        "the environment describes more than one cluster: {}; set "
        "OPENKS_ROLE_MAKER to paddlecloud, tfconfig or slurm to choose",
        found);
  return present.front()->create(environment);
}
