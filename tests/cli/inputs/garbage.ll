; Not LLVM IR at all.
this is not ( valid IR @@@
