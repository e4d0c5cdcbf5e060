// Tests that invalid job configurations are clear errors.
// RUN: not openks-opt %s --openks-configure-job 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:1,127.0.0.1:1" 2>&1 | FileCheck %s --check-prefix=DUPLICATE
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1" 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:1 trainers=0" 2>&1 | FileCheck %s --check-prefix=TRAINERS
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:1 min-block-size=0" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:1 geo-push-steps=0" 2>&1 | FileCheck %s --check-prefix=GEO
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:1 mode=bogus" 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:1 split-method=bogus" 2>&1 | FileCheck %s --check-prefix=SPLIT

// NONE: error: openks-configure-job: server endpoints must not be empty
// DUPLICATE: error: openks-configure-job: server endpoints list '127.0.0.1:1' twice
// MALFORMED: error: openks-configure-job: endpoint '127.0.0.1' must have the form host:port
// TRAINERS: error: openks-configure-job: a job needs at least one trainer, got 0
// BLOCK: error: openks-configure-job: min_block_size must be at least 1, got 0
// GEO: error: openks-configure-job: geo_push_steps must be at least 1, got 0
// MODE: Cannot find option named 'bogus'
// SPLIT: Cannot find option named 'bogus'
module {
}
