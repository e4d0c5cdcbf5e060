//===- RoleMakerFromEnvironmentTest.cpp - Tests of role maker choice ------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/RoleMaker.h"

#include "Fleet/FleetTesting.h"

using namespace openks;
using namespace openks::fleet;
using namespace openks::fleet::testing;

namespace {

using Variables = std::map<std::string, std::string>;

const Variables kPaddleCloud = {
    {"TRAINING_ROLE", "TRAINER"},
    {"PADDLE_PSERVERS_IP_PORT_LIST", "127.0.0.1:6170"},
    {"PADDLE_TRAINERS_NUM", "1"},
    {"PADDLE_TRAINER_ID", "0"}};
const Variables kTFConfig = {
    {"TF_CONFIG", R"({"cluster": {"ps": ["p:1"], "worker": ["w:1"]},
                      "task": {"type": "ps", "index": 0}})"}};
const Variables kSlurm = {{"SLURM_PROCID", "1"},
                          {"SLURM_NTASKS", "2"},
                          {"SLURM_JOB_NODELIST", "n1"},
                          {"OPENKS_SLURM_SERVERS", "1"}};

/// Returns the union of `parts`.
Variables merged(std::initializer_list<Variables> parts) {
  Variables all;
  for (const Variables &part : parts)
    all.insert(part.begin(), part.end());
  return all;
}

/// Returns the description of the role maker chosen for `variables` after
/// generating its role, or "error: ..." when there is none.
std::string chosen(const Variables &variables) {
  StatusOr<std::unique_ptr<RoleMaker>> maker =
      createRoleMakerFromEnvironment(Environment::fromMap(variables));
  if (!maker)
    return "error: " + maker.status().message();
  std::string error = generateError(**maker);
  return error.empty() ? (*maker)->describe() : "generate: " + error;
}

// Tests that each scheduler's variables pick its role maker.
TEST(RoleMakerFromEnvironmentTest, PicksTheScheduler) {
  EXPECT_EQ(chosen(kPaddleCloud),
            "PaddleCloud role maker (TRAINING_ROLE=TRAINER)");
  EXPECT_EQ(chosen(kTFConfig), "TF_CONFIG role maker");
  EXPECT_EQ(chosen(kSlurm), "Slurm role maker (SLURM_PROCID=1)");
  // A partial PaddleCloud environment is still PaddleCloud's, and its role
  // maker names what is missing.
  EXPECT_EQ(chosen({{"PADDLE_PSERVERS_IP_PORT_LIST", "a:1"}}),
            "generate: PaddleCloud role maker: environment variable "
            "TRAINING_ROLE is not set");
  // paddle-operator's other name of the role is evidence too.
  Variables synonym = kPaddleCloud;
  synonym.erase("TRAINING_ROLE");
  synonym.erase("PADDLE_PSERVERS_IP_PORT_LIST");
  synonym["PADDLE_TRAINING_ROLE"] = "TRAINER";
  EXPECT_EQ(chosen(synonym),
            "generate: PaddleCloud role maker "
            "(PADDLE_TRAINING_ROLE=TRAINER): environment "
            "variable PADDLE_PSERVERS_IP_PORT_LIST is not set");
}

// Tests the errors for no scheduler and for several.
TEST(RoleMakerFromEnvironmentTest, RefusesNoneAndSeveral) {
  StatusOr<std::unique_ptr<RoleMaker>> maker =
      createRoleMakerFromEnvironment(Environment::fromMap({{"HOME", "/"}}));
  ASSERT_FALSE(maker.isOk());
  EXPECT_EQ(maker.status().code(), StatusCode::NotFound);
  EXPECT_EQ(chosen({}),
            "error: no cluster environment found: set TRAINING_ROLE and the "
            "other PaddleCloud variables, TF_CONFIG, or run under Slurm's "
            "srun (SLURM_PROCID); or use a UserDefinedRoleMaker");
  EXPECT_EQ(chosen(merged({kPaddleCloud, kSlurm})),
            "error: the environment describes more than one cluster: "
            "paddlecloud (TRAINING_ROLE, PADDLE_PSERVERS_IP_PORT_LIST), slurm "
            "(SLURM_PROCID); set OPENKS_ROLE_MAKER to paddlecloud, tfconfig "
            "or slurm to choose");
  EXPECT_NE(chosen(merged({kTFConfig, kSlurm})).find("tfconfig (TF_CONFIG)"),
            std::string::npos);
  // A PaddleCloud-style launcher inside a Slurm job.
  EXPECT_EQ(chosen(merged({kPaddleCloud, {{"SLURM_JOB_ID", "7"}}})),
            "error: the environment describes more than one cluster: "
            "paddlecloud (TRAINING_ROLE, PADDLE_PSERVERS_IP_PORT_LIST), slurm "
            "(SLURM_JOB_ID); set OPENKS_ROLE_MAKER to paddlecloud, tfconfig "
            "or slurm to choose");
}

// Tests that OPENKS_ROLE_MAKER chooses, even against the evidence.
TEST(RoleMakerFromEnvironmentTest, HonoursAnExplicitChoice) {
  Variables all = merged({kPaddleCloud, kTFConfig, kSlurm});
  all["OPENKS_ROLE_MAKER"] = "slurm";
  EXPECT_EQ(chosen(all), "Slurm role maker (SLURM_PROCID=1)");
  all["OPENKS_ROLE_MAKER"] = "tfconfig";
  EXPECT_EQ(chosen(all), "TF_CONFIG role maker");
  all["OPENKS_ROLE_MAKER"] = "paddlecloud";
  EXPECT_EQ(chosen(all), "PaddleCloud role maker (TRAINING_ROLE=TRAINER)");
  all["OPENKS_ROLE_MAKER"] = "mpi";
  EXPECT_EQ(chosen(all), "error: environment variable OPENKS_ROLE_MAKER is "
                         "'mpi'; expected paddlecloud, tfconfig or slurm");
  EXPECT_EQ(chosen({{"OPENKS_ROLE_MAKER", "tfconfig"}}),
            "generate: TF_CONFIG role maker: environment variable TF_CONFIG "
            "is not set");
}

} // namespace
