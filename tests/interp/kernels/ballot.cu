// Warp votes: each warp's ballot of odd inputs, and any/all.
__global__ void ballotVotes(const int *in, unsigned *ballots, int *votes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[i];
  unsigned ballot = __ballot_sync(0xffffffffu, value & 1);
  int any = __any_sync(0xffffffffu, value > 90);
  int all = __all_sync(0xffffffffu, value >= 0);
  if ((threadIdx.x & 31) == 0) {
    int warp = i / 32;
    ballots[warp] = ballot;
    votes[warp * 2 + 0] = any;
    votes[warp * 2 + 1] = all;
  }
}
