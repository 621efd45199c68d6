/* Used by pragma-in-header.c: weft pragmas must be in the main file. */
#pragma scop
