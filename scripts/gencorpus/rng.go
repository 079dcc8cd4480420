package main

import "math/bits"

// rng is a SplitMix64 generator. It is defined here rather than taken from math/rand/v2 so
// that the corpus for a given seed stays byte-identical across Go releases: the benchmark
// figures in docs/benchmarks.md refer to commits whose hashes must not drift.
type rng struct{ s uint64 }

// newRNG returns an independent stream for (seed, stream). Every document gets its own
// stream, so documents can be rendered in parallel and in any order.
func newRNG(seed, stream uint64) *rng {
	r := &rng{s: mix64(seed)}
	r.s ^= mix64(stream + 0x632be59bd9b4e019)
	return r
}

func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn returns a number in [0, n). The multiply-shift reduction has a bias below 2^-40 for
// the sizes used here, which does not matter for a test corpus.
func (r *rng) intn(n int) int {
	if n <= 0 {
		return 0
	}
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// between returns a number in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

func (r *rng) chance(p float64) bool { return r.float() < p }

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }
