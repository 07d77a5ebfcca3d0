"""ptovec's shared facts, generated from include/ptovec/facts.h: do not edit. The test
FactsTest.PythonModuleIsTheHeaders (tests/tools/facts_test.cpp) fails when this file differs from
the text it renders from the header, and writes that text to copy here."""

#: The names of status bits 0 .. 4, the specification's order (bit 0 NV .. bit 4 NX).
FLAG_NAMES = ("NV", "DZ", "OF", "UF", "NX")
#: Every status bit.
STATUS_ALL = 0x1F
#: The rounding modes by index (0 RNE .. 6 RHB), NumericRoundingMode's order.
RMODE_NAMES = ("RNE", "RTM", "RTP", "RTZ", "RNA", "RTO", "RHB")
#: The controls of an op that takes them: every mode with Sat off and on.
CONTROLS = 14
#: The flag order names and the port bit each of NV DZ OF UF NX sits at in that order.
FLAG_ORDERS = {
    "spec": (0, 1, 2, 3, 4),
    "riscv": (4, 3, 2, 1, 0),
    "ieee": (4, 3, 2, 1, 0),
    "softfloat": (4, 3, 2, 1, 0),
    "testfloat": (4, 3, 2, 1, 0),
    "mxcsr": (0, 2, 3, 4, 5),
}
#: The first 8 bytes of a binary vector file and of a binary results file.
VECTOR_MAGIC = b"PTOVEC\x00B"
RESULTS_MAGIC = b"PTOVEC\x00R"
#: The comparison policy's names: every status bit, none, and the prefix of a list of status bit
#: names joined by POLICY_SEPARATOR.
POLICY_ALL = "word+flags"
POLICY_WORD = "word"
POLICY_SOME = "word+flags:"
POLICY_SEPARATOR = ","
