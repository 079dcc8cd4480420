package ids

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/canon-md/canon/index/config"
)

// The random and time id schemes (ids.scheme, ADR-0044): canon id next
// mints a short suffix after the prefix instead of counting, so that two
// clones that never saw each other do not mint the same id.

// Mint is an id of prefix the scheme ids mints from the time now and
// the random bytes of r: KB-TSK-7f3a9c (random: ids.digits lowercase hex
// digits) or KB-TSK-1jq3x5h2k7m4c (time: the millisecond time in 9
// Crockford base32 digits, which sort as the times do, then 4 of random
// bits).
func Mint(prefix string, ids config.IDs, now time.Time, r io.Reader) (string, error) {
	switch ids.Scheme {
	case config.SchemeRandom:
		n := ids.SuffixLen()
		b := make([]byte, (n+1)/2)
		if _, err := io.ReadFull(r, b); err != nil {
			return "", fmt.Errorf("draw a random id: %w", err)
		}
		return prefix + hex.EncodeToString(b)[:n], nil
	case config.SchemeTime:
		var b [3]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return "", fmt.Errorf("draw a random id: %w", err)
		}
		ms := uint64(max(now.UnixMilli(), 0))
		bits := uint64(b[0])<<12 | uint64(b[1])<<4 | uint64(b[2])>>4 // 20 bits
		var out [config.TimeSuffixLen]byte
		for i := 8; i >= 0; i-- {
			out[i] = config.Base32[ms&31]
			ms >>= 5
		}
		for i := config.TimeSuffixLen - 1; i >= 9; i-- {
			out[i] = config.Base32[bits&31]
			bits >>= 5
		}
		return prefix + string(out[:]), nil
	}
	return "", fmt.Errorf("the %s id scheme mints no suffix", ids.Scheme)
}

// mintTries bounds the draws of mintFree: with 6 hex digits and a
// thousand ids taken, 64 draws that all hit one are a 10^-270 event; one
// that does says the space is full.
const mintTries = 64

// mintFree draws ids of prefix until one is free: not taken (without
// case) and read back by the scheme as its own (a random suffix of
// letters only is a word, not an id: drawn again).
func mintFree(prefix string, ids config.IDs, taken []string, now func() time.Time, r io.Reader) (string, error) {
	seen := make(map[string]bool, len(taken))
	for _, t := range taken {
		seen[strings.ToLower(t)] = true
	}
	for range mintTries {
		id, err := Mint(prefix, ids, now(), r)
		if err != nil {
			return "", err
		}
		if p, _, ok := ids.Split(id); ok && p == prefix && !seen[strings.ToLower(id)] {
			return id, nil
		}
	}
	return "", fmt.Errorf("%d ids of %s drawn in a row were taken; raise ids.digits (now %d)", mintTries, prefix, ids.SuffixLen())
}

// schemePrefix is the prefix of an id: the scheme's split when the scheme
// minted it (KB-TSK-7f3a96 is KB-TSK-, not KB-TSK-7f3a with number 96),
// else a numbered id's.
func schemePrefix(id string, ids config.IDs) (string, bool) {
	if p, _, ok := ids.Split(id); ok {
		return p, true
	}
	p, _, _, ok := Split(id)
	return p, ok
}

// mintNow and mintRand are the clock and the randomness canon id next
// mints with.
var (
	mintNow            = time.Now
	mintRand io.Reader = rand.Reader
)
