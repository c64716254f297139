// The device heap and pointers kept in memory (issue 20): one launch builds
// a linked list with device-side new (each block pushes a node onto a list
// whose head is a __device__ variable), the next launch walks it, and a third
// deletes the nodes; the allocations outlive the launch that made them, as
// on a GPU. Then the host builds a list in managed memory, linked by its own
// pointers, and a kernel walks it. Expected: no finding, and the sums a GPU
// computes.
#include <cstdio>

struct Node {
  int value;
  Node *next;
};

__device__ Node *head = nullptr;

__global__ void push(int base) {
  if (threadIdx.x != 0)
    return;
  Node *node = new Node;
  node->value = base + int(blockIdx.x);
  node->next = (Node *)atomicExch((unsigned long long *)&head, (unsigned long long)node);
}

__global__ void walk(const Node *list, int *sum, int *length) {
  const Node *node = list ? list : head;
  int total = 0, count = 0;
  for (; node; node = node->next) {
    total += node->value;
    ++count;
  }
  *sum = total;
  *length = count;
}

__global__ void release() {
  Node *node = head;
  while (node) {
    Node *next = node->next;
    delete node;
    node = next;
  }
  head = nullptr;
}

int main() {
  size_t heap = 0;
  cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20);
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  printf("heap: %zu bytes\n", heap);
  int *sum, *length;
  cudaMallocManaged(&sum, sizeof(int));
  cudaMallocManaged(&length, sizeof(int));

  push<<<8, 32>>>(100);
  walk<<<1, 1>>>(nullptr, sum, length);
  cudaDeviceSynchronize();
  printf("device list: %d nodes, sum %d\n", *length, *sum);
  release<<<1, 1>>>();
  walk<<<1, 1>>>(nullptr, sum, length);
  cudaDeviceSynchronize();
  printf("after delete: %d nodes\n", *length);

  Node *nodes;
  cudaMallocManaged(&nodes, 5 * sizeof(Node));
  for (int i = 0; i < 5; ++i)
    nodes[i] = Node{i * i, i + 1 < 5 ? &nodes[i + 1] : nullptr};
  walk<<<1, 1>>>(nodes, sum, length);
  cudaDeviceSynchronize();
  printf("managed list: %d nodes, sum %d\n", *length, *sum);
  bool ok = *length == 5 && *sum == 30;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
