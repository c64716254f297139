// Does not compile: clang's diagnostic must reach the user.
__global__ void broken(int *out) {
  out[threadIdx.x] = undeclared_name + ;
}
