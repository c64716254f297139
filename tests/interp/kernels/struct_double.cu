// Structs with doubles: one explicit Euler step per particle under a force
// read from a struct buffer.
struct Particle {
  double position;
  double velocity;
  int id;
  int steps;
};

struct Force {
  double gravity;
  double drag;
};

__global__ void integrate(Particle *particles, const Force *forceIn, double dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Force force = *forceIn;
  Particle p = particles[i];
  double acceleration = force.gravity - force.drag * p.velocity;
  p.velocity += acceleration * dt;
  p.position += p.velocity * dt;
  p.steps += 1;
  particles[i] = p;
}
