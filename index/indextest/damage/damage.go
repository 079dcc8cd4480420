// Package damage feeds a reader damaged copies of good input, for tests
// that a parser of files a repository ships (git's index file, a pack)
// never panics: each copy is cut short now and then and has a few bytes
// flipped, the same copies on every run.
package damage

import "testing"

// Each calls read with n damaged copies of data, failing t with the copy's
// number when read panics. read judges nothing else: an error is the
// answer a damaged file should get.
func Each(t testing.TB, data []byte, n int, read func(bad []byte)) {
	t.Helper()
	seed := uint32(1)
	next := func(k int) int { seed = seed*1664525 + 1013904223; return int(seed>>8) % k }
	for i := range n {
		bad := append([]byte(nil), data...)
		if i%4 == 0 && len(bad) > 0 {
			bad = bad[:next(len(bad))]
		}
		for range 1 + next(4) {
			if len(bad) > 0 {
				bad[next(len(bad))] ^= byte(1 + next(255))
			}
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("damaged copy %d: panic %v", i, r)
				}
			}()
			read(bad)
		}()
	}
}
