// Waits for a flag no thread ever sets: never terminates.
__global__ void spinForever(volatile int *flag) {
  while (flag[0] == 0) {
  }
}
