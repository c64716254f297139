; A module with a global variable and no function at all: nothing to run.
target triple = "nvptx64-nvidia-cuda"

@counter = addrspace(1) global i32 0, align 4
