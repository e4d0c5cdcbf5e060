//===- ServerDirectory.h - Server and block numbers of a job ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Runtime/Loader: how the symbols of a transpiled module
// become the numbers the runtime's transport uses. A server's number is the
// position of its endpoint in the module's `#ps.job`, a block's number its
// position among the `ps.block`s of its server, in body order, and a
// norm's its position among the `ps.norm`s of its server. The worker's
// plans and the servers' programs are numbered by the same directory.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_LOADER_SERVERDIRECTORY_H
#define OPENKS_LIB_RUNTIME_LOADER_SERVERDIRECTORY_H

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Runtime/Communication.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

namespace openks::runtime::loader {

/// The numbers of the servers and blocks of one transpiled module.
class ServerDirectory {
public:
  /// Numbers the servers and blocks of `module`; reports on `user` a module
  /// without a `#ps.job`, and on a server an endpoint the job does not list.
  static mlir::FailureOr<ServerDirectory> build(mlir::ModuleOp module,
                                                mlir::Operation *user);

  /// Returns the number of the server `server` names; reports on `user` if
  /// there is no such server.
  mlir::FailureOr<int> getServer(mlir::Operation *user,
                                 mlir::FlatSymbolRefAttr server) const;
  /// Returns the address of the block `target` (`@server::@block`) names;
  /// reports on `user` if there is no such block.
  mlir::FailureOr<BlockAddress> getBlock(mlir::Operation *user,
                                         mlir::SymbolRefAttr target) const;

  /// Returns the address of `server`'s copy of the norm `norm`; reports on
  /// `user` if there is no such norm.
  mlir::FailureOr<NormAddress> getNorm(mlir::Operation *user,
                                       mlir::FlatSymbolRefAttr server,
                                       mlir::FlatSymbolRefAttr norm) const;

  /// Returns the blocks of a server, in number order.
  static llvm::SmallVector<ps::BlockOp> getBlocks(ps::ServerOp server);
  /// Returns the norms of a server, in number order.
  static llvm::SmallVector<ps::NormOp> getNorms(ps::ServerOp server);

private:
  llvm::StringMap<int> servers_;
  /// For each server's symbol, its blocks' numbers by symbol.
  llvm::StringMap<llvm::StringMap<int>> blocks_;
  /// For each server's symbol, its norms' numbers by symbol.
  llvm::StringMap<llvm::StringMap<int>> norms_;
};

} // namespace openks::runtime::loader

#endif // OPENKS_LIB_RUNTIME_LOADER_SERVERDIRECTORY_H
