// mulberry32: a small seeded PRNG. The one source of the ids both load generators ask for:
// k6 (an API's k6.js, one stream per VU) and its database-alone client (baseline.ts,
// one stream per worker), so every run and every implementation gets the same ids in the
// same order. Plain JavaScript, because k6 imports it too.
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
