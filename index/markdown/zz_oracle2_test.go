package markdown

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

func TestZZOracleRand(t *testing.T) {
	b, err := os.ReadFile("/tmp/oracle/rand.txt")
	if err != nil {
		t.Skip()
	}
	bad := 0
	for _, l := range strings.Split(string(b), "\n") {
		parts := strings.Split(l, "\t")
		in, _ := hex.DecodeString(parts[0])
		want, _ := hex.DecodeString(parts[1])
		if got := Slug(string(in)); got != string(want) {
			bad++
			if bad < 30 {
				t.Logf("%q: got %q want %q", in, got, want)
			}
		}
	}
	t.Logf("bad=%d", bad)
}
