# cmake -DROOT=dir -DFILES="a|b" -DOUTPUT=file.inc -P EmbedTable.cmake
# Writes a table of {"relative/path", R"weftrt(<contents>)weftrt"} entries:
# the runtime sources that `weft build-model` copies into a serving
# program's directory.
file(WRITE ${OUTPUT} "// Generated from runtime/ by EmbedTable.cmake.\n")
string(REPLACE "|" ";" files "${FILES}")
foreach(path ${files})
  file(RELATIVE_PATH rel ${ROOT} ${path})
  file(READ ${path} contents)
  file(APPEND ${OUTPUT} "{\"${rel}\", R\"weftrt(${contents})weftrt\"},\n")
endforeach()
