# -*- Python -*-
# Runs the GoogleTest binaries (names ending in "Tests") as one lit suite.
import os

import lit.formats

config.name = "WEFT-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.weft_obj_root, "test", "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
