// Tests that invalid job configurations are clear errors, reported against
// the option (not a line of the program), endpoints compared canonically.
// RUN: not openks-opt %s --openks-configure-job 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:1,127.0.0.1:1" 2>&1 | FileCheck %s --check-prefix=DUPLICATE
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:6170,127.0.0.1:06170" 2>&1 | FileCheck %s --check-prefix=CANONICAL
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1" 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not openks-opt %s --openks-configure-job="pservers=[:]:6170" 2>&1 | FileCheck %s --check-prefix=IPV6
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:1 trainers=-3" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:1 trainers=0" 2>&1 | FileCheck %s --check-prefix=TRAINERS
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:1 min-block-size=0" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:1 geo-push-steps=0" 2>&1 | FileCheck %s --check-prefix=GEO
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:1 mode=bogus" 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not openks-opt %s --openks-configure-job="pservers=127.0.0.1:1 split-method=bogus" 2>&1 | FileCheck %s --check-prefix=SPLIT

// NONE: error: openks-configure-job: option 'pservers' must not be empty
// DUPLICATE: error: openks-configure-job: option 'pservers' list '127.0.0.1:1' twice
// CANONICAL: error: openks-configure-job: option 'pservers' list '127.0.0.1:6170' twice (as '127.0.0.1:06170')
// MALFORMED: error: openks-configure-job: endpoint '127.0.0.1' must have the form host:port
// IPV6: error: openks-configure-job: endpoint '[:]:6170' has an invalid host ':' (expected an IPv6 address)
// TRAINERS: error: openks-configure-job: option 'trainers' must be at least 1, got 0
// NEGATIVE: error: openks-configure-job: option 'trainers' must be at least 1, got -3
// BLOCK: error: openks-configure-job: option 'min-block-size' must be at least 1, got 0
// GEO: error: openks-configure-job: option 'geo-push-steps' must be at least 1, got 0
// MODE: openks-opt: for the --mode option: Cannot find option named 'bogus'
// MODE-NEXT: error: openks-configure-job: invalid options 'pservers=127.0.0.1:1 mode=bogus' (see the message above)
// SPLIT: Cannot find option named 'bogus'
// SPLIT-NEXT: error: openks-configure-job: invalid options
module {
}
