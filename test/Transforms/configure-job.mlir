// Tests openks-configure-job: every DistributeTranspilerConfig knob lands in
// the module's #ps.job, with Paddle's defaults.
// RUN: openks-opt %s --openks-configure-job="pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2" | FileCheck %s --check-prefix=DEFAULTS
// RUN: openks-opt %s --openks-configure-job="pservers=[::1]:7000 trainers=4 mode=async slice-var-up=false split-method=hash-name min-block-size=1024 geo-push-steps=10" | FileCheck %s --check-prefix=ASYNC
// RUN: openks-opt %s --openks-configure-job="pservers=127.0.0.1:1 mode=half-async" | FileCheck %s --check-prefix=HALF
// RUN: openks-opt %s --openks-configure-job="pservers=127.0.0.1:1 mode=geo geo-push-steps=5" | FileCheck %s --check-prefix=GEO

// DEFAULTS: module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>}
// ASYNC: #ps.job<mode = async, trainers = 4, endpoints = ["[::1]:7000"], slice_var_up = false, split_method = hash_name, min_block_size = 1024, geo_push_steps = 10>
// HALF: #ps.job<mode = half_async, trainers = 1,
// GEO: #ps.job<mode = geo, {{.*}} geo_push_steps = 5>
module {
}
