/* Not C: clang writes 3 lines per error, cgramap shows 8 (tests/extract/test_extract.c). */
not c 1;
not c 2;
not c 3;
not c 4;
not c 5;
not c 6;
//DFGLOOP: x
