// Included with quotes from spaced_launch.cu: found beside it although the
// file is compiled from a copy.
#pragma once
#define BLOCK_THREADS 64
