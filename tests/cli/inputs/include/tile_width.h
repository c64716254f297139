#define TILE_WIDTH 4
