// Raw typed access to linear memory. Every scheduler buffer is a flat array allocated once through
// the stub runtime's bump allocator (see docs/wasm-layout.md); these helpers keep the kernels free
// of bounds checks and of managed objects.

// @ts-ignore: decorator
@inline export function getI32(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}
// @ts-ignore: decorator
@inline export function setI32(base: usize, i: i32, value: i32): void {
  store<i32>(base + (<usize>i << 2), value);
}
// @ts-ignore: decorator
@inline export function getF64(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}
// @ts-ignore: decorator
@inline export function setF64(base: usize, i: i32, value: f64): void {
  store<f64>(base + (<usize>i << 3), value);
}
// @ts-ignore: decorator
@inline export function getU8(base: usize, i: i32): u8 {
  return load<u8>(base + <usize>i);
}
// @ts-ignore: decorator
@inline export function setU8(base: usize, i: i32, value: u8): void {
  store<u8>(base + <usize>i, value);
}

/** A zeroed buffer of `n` i32 (at least one slot, so the pointer is never shared). */
export function allocI32(n: i32): usize {
  const bytes = <usize>max<i32>(n, 1) << 2;
  const ptr = heap.alloc(bytes);
  memory.fill(ptr, 0, bytes);
  return ptr;
}

export function allocF64(n: i32): usize {
  const bytes = <usize>max<i32>(n, 1) << 3;
  const ptr = heap.alloc(bytes);
  memory.fill(ptr, 0, bytes);
  return ptr;
}

export function allocU8(n: i32): usize {
  const bytes = <usize>max<i32>(n, 1);
  const ptr = heap.alloc(bytes);
  memory.fill(ptr, 0, bytes);
  return ptr;
}

// @ts-ignore: decorator
@inline export function clip(x: f64, lo: f64, hi: f64): f64 {
  return min<f64>(max<f64>(x, lo), hi);
}
