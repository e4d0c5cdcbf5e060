# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Prints the option lines of the pass or pipeline `entry` (`--name`) in
# `openks-opt --help`: the lines after its own that list one of its options
# (`--option=...`, indented by 8) or an option's values (`=value`, by 4).
$1 == entry { listing = 1; next }
listing && !/^        --/ && !/^    =/ { exit }
listing { print }
