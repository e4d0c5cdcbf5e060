//===- SlurmRoleMaker.h - Roles of the tasks of a Slurm step ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_SLURMROLEMAKER_H
#define OPENKS_FLEET_SLURMROLEMAKER_H

#include "openks/Fleet/RoleMaker.h"

#include <optional>

namespace openks::fleet {

/// The role of a task of a Slurm job step (one srun): the first M tasks are
/// servers and the others workers, by SLURM_PROCID. Every task's endpoint is
/// its node and the base port plus its rank on that node, so the tasks on a
/// node never share a port.
///
///   SLURM_PROCID         this task's rank, 0 to SLURM_NTASKS - 1
///   SLURM_NTASKS         the number of tasks
///   SLURM_JOB_NODELIST   the nodes in Slurm's compressed form
///                        ("node[01-03,07],gpu5"), in order
///   SLURM_TASKS_PER_NODE (optional) tasks on each node, e.g. "3(x2),2";
///                        without it the tasks are spread as Slurm's block
///                        distribution does: in rank order, the first
///                        NTASKS mod NODES nodes one task more than the rest
///   OPENKS_SLURM_SERVERS the number of servers M, unless the constructor
///                        gives it
///   OPENKS_SLURM_BASE_PORT the base port, unless the constructor gives it;
///                        6170 when neither does
///
/// generateRole() fails naming any missing or malformed variable.
class SlurmRoleMaker : public RoleMaker {
public:
  /// The port of the first task on each node when none is given.
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

} // namespace openks::fleet

#endif // OPENKS_FLEET_SLURMROLEMAKER_H
