package index

import (
	"crypto/sha256"
	"encoding/binary"
	"strings"
	"testing"
)

// TestSignatureHashesLengthsAndBytes: signature is the first 8 bytes of
// SHA-256 over each part's length and bytes, for parts shorter and longer
// than the buffer it writes them through. Stored hashes (chunks.hash,
// docs.links_sig) depend on it.
func TestSignatureHashesLengthsAndBytes(t *testing.T) {
	t.Parallel()
	for _, parts := range [][]string{
		nil, {""}, {"", ""}, {"a"}, {"title", "heading", "body"},
		{strings.Repeat("x", 4095), strings.Repeat("y", 4096), strings.Repeat("z", 4097)},
		{strings.Repeat("é", 10000), "", "tail"},
	} {
		var all []byte
		for _, p := range parts {
			all = binary.LittleEndian.AppendUint64(all, uint64(len(p)))
			all = append(all, p...)
		}
		sum := sha256.Sum256(all)
		if want, got := int64(binary.LittleEndian.Uint64(sum[:8])), signature(parts...); got != want {
			t.Errorf("signature of %d parts = %d, want %d", len(parts), got, want)
		}
	}
}
