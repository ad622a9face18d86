# Wraps the LLVM IR of a run-time source (INPUT) in a C++ raw string literal
# named NAME, written to OUTPUT, for Core/RuntimeLibrary.cpp to include.
file(READ "${INPUT}" ir)
file(WRITE "${OUTPUT}"
  "// Generated from ${INPUT} by EmbedRuntime.cmake; do not edit.\n"
  "static const char ${NAME}[] = R\"ENZYME_RT_IR(${ir})ENZYME_RT_IR\";\n")
