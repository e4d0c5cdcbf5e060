// Tests the verifiers of the paddle dialect: block numbering and
// references, unique names, variable types and attribute values.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

// Tests that a program needs its root block.
// expected-error @+1 {{'paddle.program' op needs at least one block, the root block}}
paddle.program {
}

// -----

// Tests that blocks are numbered by position.
paddle.program {
  // expected-error @+1 {{'paddle.block' op has idx 1 at position 0}}
  paddle.block 1 parent -1 {
  }
}

// -----

// Tests that a parent index names a block.
paddle.program {
  // expected-error @+1 {{'paddle.block' op parent_idx 3 names no block: the program has 1 block}}
  paddle.block 0 parent 3 {
  }
}

// -----

// Tests that block 0 is the root and that every other block's parent comes
// before it, so that every chain of parents ends at the root.
paddle.program {
  paddle.block 0 parent -1 {
  }
  // expected-error @+1 {{blocks[1]: parent_idx 2 leads into a cycle of parents, 1 -> 2 -> 1: a chain of parents must end at the root block 0, whose parent_idx is -1}}
  paddle.block 1 parent 2 {
  }
  paddle.block 2 parent 1 {
  }
}

// -----

paddle.program {
  // expected-error @+1 {{blocks[0]: parent_idx 0 leads into a cycle of parents, 0 -> 0}}
  paddle.block 0 parent 0 {
  }
}

// -----

paddle.program {
  paddle.block 0 parent -1 {
  }
  // expected-error @+1 {{blocks[1]: parent_idx 2 names a later block}}
  paddle.block 1 parent 2 {
  }
  paddle.block 2 parent 0 {
  }
}

// -----

paddle.program {
  paddle.block 0 parent -1 {
  }
  // expected-error @+1 {{blocks[1]: parent_idx -1, but only the root block 0 has no parent}}
  paddle.block 1 parent -1 {
  }
}

// -----

// Tests that no op runs a block that runs the op's own block; ops count
// without the variables.
paddle.program {
  paddle.block 0 parent -1 {
    paddle.op "while" ins() outs() attrs {sub_block = #paddle.block<1>}
  }
  paddle.block 1 parent 0 {
    paddle.var "x" : raw
    // expected-error @+1 {{blocks[1].ops[0] ('while'), attribute 'sub_block': block reference 0 closes a cycle of sub-blocks, 0 -> 1 -> 0: each block runs the next}}
    paddle.op "while" ins() outs() attrs {sub_block = #paddle.block<0>}
  }
}

// -----

// Tests that a forward block index names a block.
paddle.program {
  paddle.block 0 parent -1 {
  }
  // expected-error @+1 {{'paddle.block' op forward_block_idx -2 names no block: the program has 2 blocks}}
  paddle.block 1 parent 0 forward -2 {
  }
}

// -----

// Tests that BLOCK and BLOCKS attributes name blocks.
paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{'paddle.op' op block reference 1 names no block: the program has 1 block}}
    paddle.op "while" ins() outs() attrs {sub_block = #paddle.block<1>}
  }
}

// -----

paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{'paddle.op' op block reference -1 names no block}}
    paddle.op "listen_and_serv" ins() outs() attrs {optimize_blocks = #paddle.blocks<[0, -1]>}
  }
}

// -----

// Tests that only blocks are in a program.
paddle.program {
  paddle.block 0 parent -1 {
  }
  // expected-error @+1 {{'paddle.var' op expects parent op 'paddle.block'}}
  paddle.var "x" : raw
}

// -----

// Tests that the default required version belongs to a compatibility map.
// expected-error @+1 {{'paddle.program' op has a default_required_version but no op_compatible_map}}
paddle.program attributes {default_required_version = "1.5.0"} {
  paddle.block 0 parent -1 {
  }
}

// -----

// Tests that a block declares each variable once.
paddle.program {
  paddle.block 0 parent -1 {
    paddle.var "x" : raw
    // expected-error @+1 {{'paddle.var' op redeclares variable 'x' of block 0}}
    paddle.var "x" : lod_tensor
  }
}

// -----

// Tests that a variable has a name.
paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{'paddle.var' op needs a name}}
    paddle.var "" : raw
  }
}

// -----

// Tests that only LoD tensor descriptions have a LoD level.
paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{'paddle.var' op gives a lod_level to a description that has none}}
    paddle.var "rows" : selected_rows<fp32 [8, 4], lod_level = 0>
  }
}

// -----

// Tests that tuple element types are Paddle types.
paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{'paddle.var' op has an unknown tuple element type 99}}
    "paddle.var"() <{kind = 18 : i32, name = "t", tuple = array<i32: 5, 99>}> : () -> ()
  }
}

// -----

// Tests that variable attributes are INT, STRING or INTS.
paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{'paddle.var' op attribute 'f' is a FLOAT, which this op cannot hold}}
    paddle.var "x" : raw attrs {f = 1.0 : f32}
  }
}

// -----

// Tests that an op has a type.
paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{'paddle.op' op needs an op type}}
    paddle.op "" ins() outs()
  }
}

// -----

// Tests that slot names are unique among the inputs.
paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{'paddle.op' op has two input slots named 'X'}}
    paddle.op "sum" ins(X = ["a"], X = ["b"]) outs(Out = ["c"])
  }
}

// -----

// Tests that attribute names are unique.
paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{'paddle.op' op has two attributes named 'axis'}}
    paddle.op "concat" ins() outs() attrs {axis = 0 : i32, axis = 1 : i32}
  }
}

// -----

// Tests that attribute values have a Paddle type.
paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{'paddle.op' op attribute 'x' is no Paddle attribute value: 1 : i16}}
    paddle.op "cast" ins() outs() attrs {x = 1 : i16}
  }
}

// -----

// Tests that there are as many attribute values as names.
paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{'paddle.op' op needs as many attribute values as names}}
    "paddle.op"() <{attr_names = ["a", "b"], attr_values = [1 : i32], inputs = [], op_type = "x", outputs = []}> : () -> ()
  }
}

// -----

paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{slot 'X' binds something other than variable names}}
    paddle.op "relu" ins(X = [1]) outs()
  }
}

// -----

paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{a Paddle scalar is a bool, an i64, an f64 or an array<f64: re, im>, got 1 : i32}}
    paddle.op "full" ins() outs() attrs {value = #paddle.scalar<1 : i32>}
  }
}

// -----

paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{unknown Paddle data type 'fp99'}}
    paddle.var "x" : lod_tensor<fp99 [1]>
  }
}

// -----

paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{unknown Paddle var type 'tensor'}}
    paddle.var "x" : tensor
  }
}

// -----

paddle.program {
  paddle.block 0 parent -1 {
    // expected-error @+1 {{'lod_tensor' is given twice}}
    paddle.var "x" : lod_tensor<fp32 [1]> lod_tensor<fp32 [1]>
  }
}
