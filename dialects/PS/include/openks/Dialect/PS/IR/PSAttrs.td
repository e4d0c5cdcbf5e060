//===- PSAttrs.td - Parameter-server dialect attributes ----*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The job configuration a module carries through the transpile passes.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PS_IR_PSATTRS_TD
#define OPENKS_DIALECT_PS_IR_PSATTRS_TD

include "openks/Dialect/PS/IR/PSBase.td"
include "mlir/IR/AttrTypeBase.td"

/// How blocks are placed on servers (DistributeTranspilerConfig's
/// split_method).
def PS_SplitMethod : I32EnumAttr<"SplitMethod", "block placement rule", [
    I32EnumAttrCase<"RoundRobin", 0, "round_robin">,
    I32EnumAttrCase<"HashName", 1, "hash_name">]> {
  let cppNamespace = "::openks::ps";
}

def PS_JobAttr : AttrDef<PS_Dialect, "Job"> {
  let mnemonic = "job";
  let summary = "The parameter-server job a module is transpiled for.";
  let description = [{
    Paddle's DistributeTranspilerConfig plus the transpile arguments: the
    synchronisation mode, the number of trainers, the ordered server
    endpoints (their order defines server indices), whether variables are
    sliced (`slice_var_up`), the placement rule, the minimum block size in
    elements and the GEO push period. `openks-configure-job` attaches it to
    the module as `ps.job`; every later transpile pass reads it, so each runs
    alone on a configured module.

    ```mlir
    module attributes {ps.job = #ps.job<mode = sync, trainers = 2,
        endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true,
        split_method = round_robin, min_block_size = 8192,
        geo_push_steps = 100>} {
    }
    ```
  }];
  let parameters = (ins EnumParameter<PS_Mode>:$mode, "int64_t":$trainers,
                        "::mlir::ArrayAttr":$endpoints,
                        "::mlir::BoolAttr":$slice_var_up,
                        EnumParameter<PS_SplitMethod>:$split_method,
                        "int64_t":$min_block_size, "int64_t":$geo_push_steps);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the module attribute that holds the job.
    static constexpr ::llvm::StringLiteral kAttrName = "ps.job";
    /// Returns the endpoints as strings, in server order.
    std::vector<std::string> getEndpointNames() const;
  }];
}

#endif // OPENKS_DIALECT_PS_IR_PSATTRS_TD
