# cmake -DINPUT=file -DOUTPUT=file.inc -DNAME=ident -P Embed.cmake
# Writes `static const char NAME[] = R"weftrt(<contents>)weftrt";`.
file(READ ${INPUT} contents)
file(WRITE ${OUTPUT}
  "static const char ${NAME}[] = R\"weftrt(${contents})weftrt\";\n")
