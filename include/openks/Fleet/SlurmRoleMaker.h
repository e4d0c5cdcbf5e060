//===- SlurmRoleMaker.h - Roles of the tasks of a Slurm step ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_SLURMROLEMAKER_H
#define OPENKS_FLEET_SLURMROLEMAKER_H

#include "openks/Fleet/RoleMaker.h"

#include <optional>

namespace openks::fleet {

/// The role of a task of a Slurm job step (one srun): the first M tasks are
/// servers and the others workers, by SLURM_PROCID. Every task's endpoint is
/// its node and a port of its rank on that node, so the tasks on a node
/// never share a port.
///
///   SLURM_PROCID         this task's rank, 0 to the number of tasks - 1
///   SLURM_STEP_NUM_TASKS the number of tasks; SLURM_NTASKS when unset
///   SLURM_STEP_NODELIST  the nodes in Slurm's compressed form
///                        ("node[01-03,07],gpu5"), in order;
///                        SLURM_JOB_NODELIST when unset
///   SLURM_STEP_TASKS_PER_NODE (optional; else SLURM_TASKS_PER_NODE) tasks
///                        on each node, e.g. "3(x2),2"; without either the
///                        tasks are spread as Slurm's block distribution
///                        does: in rank order, the first NTASKS mod NODES
///                        nodes one task more than the rest
///   OPENKS_SLURM_SERVERS the number of servers M, unless the constructor
///                        gives it
///   OPENKS_SLURM_BASE_PORT the port of each node's first task, unless the
///                        constructor gives it
///   SLURM_STEP_RESV_PORTS (optional) the ports srun reserved on every node
///                        of the step ("12000-12003"): without a base port,
///                        the task of rank r on its node takes the r-th;
///                        without either, ports count from 6170
///
/// The role maker refuses a process that srun did not start: one with
/// SLURM_JOB_ID but no SLURM_STEP_ID, or whose SLURM_STEP_ID is Slurm's
/// batch, interactive or extern step (a batch script run without srun).
/// It checks the place srun gave this task, when srun says it
/// (SLURM_NODEID, SLURMD_NODENAME, SLURM_LOCALID, SLURM_GTIDS), against the
/// block layout, so that another distribution (--distribution=cyclic) is an
/// error rather than a wrong role. generateRole() fails naming any missing,
/// malformed or inconsistent variable.
class SlurmRoleMaker : public RoleMaker {
public:
  /// The port of the first task on each node when neither a base port nor
  /// reserved ports are given.
  static constexpr int kDefaultBasePort = 6170;

  explicit SlurmRoleMaker(Environment environment,
                          std::optional<int> serverNum = std::nullopt,
                          std::optional<int> basePort = std::nullopt);

  std::string describe() const override;

protected:
  StatusOr<RoleAssignment> readRole() const override;

private:
  Environment environment_;
  std::optional<int> serverNum_;
  std::optional<int> basePort_;
};

/// Expands a Slurm host list ("node[01-03,07],gpu5" gives node01, node02,
/// node03, node07, gpu5): items separated by commas outside brackets, each
/// a name with bracketed lists of numbers and ranges, which keep the zero
/// padding of their lower bound; several bracket groups in one item expand
/// to every combination, the last varying fastest. Fails naming the text
/// and what is wrong, or when the list expands to more than `maxHosts`
/// names.
StatusOr<std::vector<std::string>>
expandSlurmHostList(const std::string &hostList, size_t maxHosts = 65536);

/// Expands SLURM_TASKS_PER_NODE ("3(x2),2" gives 3, 3, 2). Fails naming the
/// text and what is wrong, or when it gives more than `maxNodes` counts.
StatusOr<std::vector<int>> expandSlurmTasksPerNode(const std::string &text,
                                                   size_t maxNodes = 65536);

/// Expands a list of ports in Slurm's form (SLURM_STEP_RESV_PORTS:
/// "12000-12002,12005" gives 12000, 12001, 12002, 12005): items separated by
/// commas, each a port or a range, from 1 to 65535 and increasing. Fails
/// naming the text and the bad item.
StatusOr<std::vector<int>> expandSlurmPortList(const std::string &text);

} // namespace openks::fleet

#endif // OPENKS_FLEET_SLURMROLEMAKER_H
